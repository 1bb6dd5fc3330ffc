// "Save picture": the widget as it is shown, drawn from its own DOM (snapshot.js: a copy with its
// computed styles, in an SVG) into a PNG for slides and worksheets. Drawn from what is on screen, so it
// holds nothing the viewer cannot see; the file name says only the step and the perspective.
// The picture feature: its UI slice `ui.picture` says whether a picture is being drawn, or why the
// last one failed (browser-side only: never sent); it also answers Python's `save_png`.

import { h } from "./dom.js";
import { MAX_PICTURE_URL } from "./shared.js";
import { snapshotSvg } from "./snapshot.js";

/** Pixels per CSS pixel: sharp on a projector. */
export const PIXEL_RATIO = 2;

const CLEAR = /^(transparent|rgba\(\s*0,\s*0,\s*0,\s*0\s*\))$/i;

/** The file name of a picture of `state`: `needle-step-12-player-1.png` (step and perspective, nothing else). */
export function pictureName(state) {
  const step = Number.isInteger(state && state.step) && state.step >= 0 ? state.step : 0;
  const p = state && state.perspective;
  const who = p === 0 || p === 1 ? `player-${p + 1}` : p === "spectator" || p === "teacher" ? p : "view";
  return `needle-step-${step}-${who}.png`;
}

/** The colour behind `node` as the theme paints it (the first opaque background up the tree), so a
 * dark theme gives a dark picture, never a transparent one. */
export function backgroundOf(node) {
  for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
    const bg = getComputedStyle(n).backgroundColor;
    if (bg && !CLEAR.test(bg.trim())) return bg;
  }
  return "#ffffff";
}

/** The "Save picture" control for the header: the button and its polite status line. While drawing
 * the button is aria-disabled, not disabled, so it keeps the keyboard focus (a disabled button drops
 * it on the page, where JupyterLab's shortcuts would take the next key). */
export function renderPictureControl(picture = {}) {
  const saving = Boolean(picture.saving);
  const status = picture.error || (saving ? "Drawing the picture…" : picture.saved ? `Saved ${picture.saved}` : "");
  return h(
    "span",
    { class: "nw-picture" },
    h("button", {
      type: "button", class: "nw-btn nw-picture-btn", "data-key": "save-picture", "data-picture": "save",
      "data-ui": { ui: "picture-save" },
      title: "Save the view shown as a PNG picture", "aria-disabled": saving ? "true" : null,
      "aria-busy": saving ? "true" : null,
    }, saving ? "Saving…" : "Save picture"),
    h("span", { class: "nw-picture-status", role: "status" }, status),
  );
}

/** The path of `node` below `root`: its element-child indices. */
function pathTo(root, node) {
  const path = [];
  for (let n = node; n && n !== root; n = n.parentElement) path.unshift(Array.prototype.indexOf.call(n.parentElement.children, n));
  return path;
}

function follow(clone, path) {
  let n = clone;
  for (const i of path) n = n && n.children ? n.children[i] : null;
  return n;
}

const SCROLLS = /^(auto|scroll|hidden|overlay)$/;

/** The copy has each element's computed style, not its state: what the view shows is put back into
 * it. A scrolled list shows where it is scrolled to (its scrollbars left out), a
 * row that fits on one line stays on one line (the copied widths round down a hair and wrap it),
 * and the "Save picture" control itself is left out. */
export function fixCopy(root, copy) {
  const doc = copy.ownerDocument;
  for (const node of root.querySelectorAll("*")) {
    const style = getComputedStyle(node);
    const into = () => follow(copy, pathTo(root, node));
    if ((SCROLLS.test(style.overflowY) || SCROLLS.test(style.overflowX))
        && (node.scrollHeight > node.clientHeight || node.scrollWidth > node.clientWidth)) {
      const twin = into();
      if (!twin || !twin.style) continue;
      twin.style.overflow = "hidden";
      if (node.scrollTop || node.scrollLeft) {
        for (const child of Array.from(twin.children)) {
          if (child.style) child.style.translate = `${-node.scrollLeft}px ${-node.scrollTop}px`;
        }
      }
    } else if (style.flexWrap === "wrap" && node.children.length > 1) {
      const tops = new Set(Array.from(node.children, (c) => c.offsetTop));
      const twin = tops.size === 1 ? into() : null;
      if (twin && twin.style) twin.style.flexWrap = "nowrap";
    }
  }
  for (const control of Array.from(copy.querySelectorAll(".nw-picture"))) control.remove();
  return doc;
}

function loadImage(url) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error("the browser could not draw it"));
    img.src = url;
  });
}

/** The SVG drawn on a canvas of `background`, PIXEL_RATIO times its size: a PNG data URL. */
async function rasterize(svgUrl, width, height, background) {
  const img = await loadImage(svgUrl);
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(width * PIXEL_RATIO);
  canvas.height = Math.round(height * PIXEL_RATIO);
  const context = canvas.getContext("2d");
  if (!context) throw new Error("no canvas to draw on");
  context.fillStyle = background;
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(img, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL("image/png");
}

const PNG_PREFIX = "data:image/png;base64,";

/** What draws a picture: the copy of the DOM as an SVG data URL (snapshot.js), then a canvas. Tests
 * replace them. */
export const painter = {
  toSvg: async (node, options) => snapshotSvg(node, options),
  rasterize,
};

const SVG_PREFIX = "data:image/svg+xml;charset=utf-8,";

const isControl = (el) => el.classList && el.classList.contains("nw-picture");

/** The widget's root drawn as a PNG data URL, as it is shown (see fixCopy). */
export async function drawPicture(root) {
  const background = backgroundOf(root);
  const svgUrl = await painter.toSvg(root, { backgroundColor: background, leaveOut: isControl });
  const text = svgUrl.startsWith(SVG_PREFIX) ? decodeURIComponent(svgUrl.slice(SVG_PREFIX.length)) : null;
  const doc = text ? new DOMParser().parseFromString(text, "image/svg+xml") : null;
  const svg = doc && doc.documentElement;
  const copy = svg && svg.querySelector("foreignObject");
  if (!copy || !copy.firstElementChild) throw new Error("the copy of the view gave no picture");
  fixCopy(root, copy.firstElementChild);
  const fixed = SVG_PREFIX + encodeURIComponent(new XMLSerializer().serializeToString(svg));
  const png = await painter.rasterize(fixed, Number(svg.getAttribute("width")), Number(svg.getAttribute("height")), background);
  // A canvas the browser could not make (no size, or too large) gives "data:," rather than an error.
  if (typeof png !== "string" || !png.startsWith(PNG_PREFIX) || png.length === PNG_PREFIX.length) {
    throw new Error("the browser gave an empty picture");
  }
  return png;
}

/** A PNG data URL as a Blob. */
export function pngBlob(dataUrl) {
  const base64 = String(dataUrl).slice(String(dataUrl).indexOf(",") + 1);
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: "image/png" });
}

/** Draws `root` and downloads it as `filename` (an `<a download>` click). Resolves once saved. */
export async function savePicture(root, filename) {
  const png = await drawPicture(root);
  const url = URL.createObjectURL(pngBlob(png));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.style.display = "none";
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
  return png;
}

export const pictureFeature = {
  name: "picture",
  initial: () => ({ saving: false, error: null, saved: null }),
  reduce(picture, action) {
    switch (action.ui) {
      case "picture-save": // the button stays pressable while drawing (aria-disabled): once at a time
        return picture.saving ? picture : { saving: true, error: null, saved: null };
      case "picture-saved":
        return { saving: false, error: null, saved: action.name };
      case "picture-failed":
        return { saving: false, error: action.error, saved: null };
      default:
        return picture;
    }
  },
  views: { header: (state, ui) => (state.cover || !state.table ? null : renderPictureControl(ui.picture)) },
  connect(ctx) {
    let drawing = false;
    return {
      /** "Save picture" pressed: draws the view shown and downloads it; a failure is a polite
       * status line, never an exception. */
      rendered() {
        if (drawing || !ctx.ui().picture.saving) return;
        drawing = true;
        const state = ctx.state();
        const name = pictureName({ step: state.step, perspective: state.table ? state.table.perspective : state.perspective });
        savePicture(ctx.root, name)
          .then(() => ({ ui: "picture-saved", name }))
          .catch((error) => ({
            ui: "picture-failed",
            error: `The picture could not be drawn${error && error.message ? ` (${error.message})` : ""}.`,
          }))
          .then((action) => {
            drawing = false;
            ctx.dispatch(action);
          });
      },
      /** Python's `save_png(path)` asks the open views for a picture: {kind: "picture", id}. Each view
       * answers with the PNG it draws (Python keeps the first); a view that cannot draw stays silent. */
      message(msg) {
        if (!msg || msg.kind !== "picture" || !Number.isInteger(msg.id) || ctx.disposed()) return;
        drawPicture(ctx.root)
          .then((png) => {
            if (ctx.disposed()) return;
            // Over what Python takes (MAX_PICTURE) the message could close the kernel's websocket: keep it.
            if (png.length > MAX_PICTURE_URL) console.warn("needle_widget: the picture is too large to send for save_png");
            else ctx.model.send({ kind: "picture", id: msg.id, png });
          })
          .catch((error) => console.warn("needle_widget: could not draw the picture for save_png", error));
      },
    };
  },
};
