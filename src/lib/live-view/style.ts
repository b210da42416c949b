/** The live view's own styles, served after the viewer's in /_view/view.css (no inline style: the CSP has none). */
export const LIVE_VIEW_CSS = `
body { font: 15px/1.4 system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
header { padding: 8px 16px; background: #2b2b2b; color: #eee; display: flex; gap: 16px; align-items: baseline; }
header a { color: #9cf; }
main { padding: 12px 16px; display: grid; gap: 24px; }
main.stream { grid-template-columns: minmax(280px, 560px) 1fr; }
main.dashboard { grid-template-columns: minmax(240px, 1fr) minmax(280px, 2fr) minmax(240px, 1fr); }
h2 { font-size: 16px; margin: 16px 0 6px; }
#board { width: 100%; max-width: 560px; }
/* The viewer's board is a transparent checker pattern over the host page's --board-color. */
#board .lpv { --board-color: #d6b08a; }
.player { font-weight: 600; margin: 4px 0; }
#moves { font-family: ui-monospace, monospace; word-spacing: 2px; }
#deadline { color: #a40; }
#result { font-size: 20px; font-weight: 700; }
#controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
#controls form { display: inline-flex; gap: 6px; }
#speed { width: 7em; }
table { border-collapse: collapse; }
td, th { padding: 2px 8px; text-align: left; border-bottom: 1px solid #ddd; }
ul { padding-left: 18px; }
.minis { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 12px; }
.minis li { display: flex; flex-direction: column; gap: 4px; font-size: 12px; max-width: 144px; }
.mini { display: grid; grid-template-columns: repeat(8, 18px); grid-auto-rows: 18px; border: 1px solid #555; width: max-content; }
.mini span { display: flex; align-items: center; justify-content: center; font-size: 15px; line-height: 1; }
.mini .l { background: #eed9b6; }
.mini .d { background: #b58863; }
.mini .w { color: #fff; text-shadow: 0 0 1px #000, 0 0 1px #000; }
.mini .b { color: #000; }
@media (max-width: 900px) { main.stream, main.dashboard { grid-template-columns: 1fr; } }
`;
