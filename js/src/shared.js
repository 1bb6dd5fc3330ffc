// Generated from needle_widget.jupyter.shared.shared_constants():
// `python -m needle_widget.jupyter.shared js/src/shared.js`.
// Do not edit: tests/test_js.py fails when this file differs from what Python generates now.

export const PERSPECTIVES = [0, 1, "spectator", "teacher"];
export const PERSPECTIVE_LABELS = {"0": "Player 1", "1": "Player 2", "spectator": "Spectator", "teacher": "Teacher"};
export const PLAYER_NAMES = ["Player 1", "Player 2"];
export const MODES = ["play", "hotseat", "watch", "replay", "live", "quiz", "practice"];
export const AUTOPLAY_MODES = ["watch", "replay", "live"];
export const DRILL_MODES = ["quiz", "practice"];
export const SPEEDS = [0.5, 1.0, 2.0, 4.0, 8.0];
export const TRAITS = ["act_reason", "answer", "bots", "branch_info", "busy", "can_act", "cover", "error", "events", "graph", "hidden_reason", "info", "mode", "nearby", "offers", "paused", "perspective", "perspectives", "playing", "practice_state", "quiz_state", "review", "scale", "seats", "shown_notes", "speed", "spoilers", "step", "steps", "table", "variations", "worlds"];
export const FOLLOW_TRAITS = ["follow"];
export const BOARD_TRAITS = ["board", "view", "error", "answer"];
export const DEFAULTS = {"mode": "live", "perspective": "spectator", "perspectives": [], "step": 0, "steps": 0, "spoilers": true, "table": null, "events": [], "info": {"kind": "spectator"}, "seats": [], "bots": [], "cover": null, "error": null, "answer": null, "paused": null, "playing": false, "speed": 1.0, "scale": 1.0, "busy": false, "can_act": false, "act_reason": null, "hidden_reason": null, "nearby": {}, "offers": {}, "branch_info": null, "worlds": null, "graph": null, "variations": null, "shown_notes": [], "quiz_state": null, "practice_state": null, "review": null, "follow": null};
export const VIEW_NAMES = {"shown_notes": "notes", "quiz_state": "quiz", "practice_state": "practice"};
export const REQUESTS = {"act": ["action"], "step": ["to"], "perspective": ["to"], "autoplay": ["playing", "speed"], "reveal": [], "resume": ["bot"], "branch": ["seat", "opponent", "world"], "back": [], "worlds": ["open", "seat", "model"], "resample": [], "playout": [], "graph": ["open", "seat", "model"], "new_game": ["deal"], "line": ["variation", "to"], "line_edit": ["variation", "how", "name"], "note_add": ["step", "text", "perspective", "question"], "note_edit": ["index", "text", "perspective", "question"], "note_remove": ["index"], "quiz_answer": ["index", "answer"], "quiz_go": ["index"], "practice_retry": ["index"], "practice_show": ["index"], "practice_next": ["index"], "review": ["open"]};
export const CLASS_REQUESTS = {"step": ["to"], "line": ["variation", "to"], "live": [], "quiz_answer": ["index", "answer"], "act": ["action"], "new_game": ["deal"], "review": ["open"], "practice": ["open"], "homework": ["open"]};
export const MAX_REQUEST_ID = 2147483647;
export const MAX_PICTURE_URL = 8388630;
export const PERCENT_EXAMPLES = [[0.0, "0%"], [0.0004, "<0.1%"], [0.00049999, "<0.1%"], [0.0005, "<0.1%"], [0.001, "0.1%"], [0.0222, "2.2%"], [0.025, "2.5%"], [0.0245, "2.5%"], [0.02625, "2.6%"], [0.0995, "10%"], [0.09949, "9.9%"], [0.09951, "10%"], [0.1, "10%"], [0.245, "25%"], [0.2450000001, "25%"], [0.125, "13%"], [0.5, "50%"], [0.675, "68%"], [0.845, "85%"], [0.995, "100%"], [0.9994, "100%"], [0.99949, "100%"], [0.9995, "100%"], [1.0, "100%"], [0.3333333333333333, "33%"], [0.6666666666666666, "67%"]];
