// The entry of an exported replay (needle_widget/export.py): the widget on a static model of the
// states embedded in the page, with no kernel and no network.

import { mount } from "./index.js";
import { staticModel, unpack } from "./staticmodel.js";

export function boot(doc = document) {
  const el = doc.getElementById("needle-widget");
  const data = doc.getElementById("needle-data");
  if (!el || !data) return null;
  const packed = JSON.parse(data.textContent);
  const model = staticModel(unpack(packed), packed.step || 0);
  const cleanup = mount(model, el);
  return { model, cleanup };
}

boot();
