/** The checkout's stylesheet, inline (no external assets): readable, large touch targets, visible focus. */
export const checkoutStyle = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b5cad;
  --ok: #116329; --bad: #a40e26; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; background: #f6f8fa; color: var(--ink); line-height: 1.45; }
main { max-width: 28rem; margin: 2rem auto; background: #fff; border: 1px solid var(--line);
  border-radius: 12px; padding: 1.5rem; }
.merchant { margin: 0; color: var(--muted); font-size: .95rem; }
h1 { margin: .25rem 0 1rem; font-size: 1.4rem; }
h2 { margin: 0 0 .5rem; font-size: 1.25rem; }
.amount { font-size: 2rem; font-weight: 700; margin: 0 0 1rem; }
.meta { color: var(--muted); margin: 0 0 1rem; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input, select { width: 100%; font: inherit; padding: .6rem .7rem; border: 1px solid var(--line);
  border-radius: 8px; }
input:focus, select:focus, button:focus { outline: 3px solid #80b3ff; outline-offset: 1px; }
.row { display: flex; gap: .75rem; } .row > div { flex: 1; }
fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 1rem 0 0; padding: .5rem .75rem .75rem; }
legend { font-weight: 600; padding: 0 .25rem; }
.choice { display: flex; align-items: center; gap: .5rem; font-weight: 400; margin: .35rem 0; }
.choice input { width: auto; }
.plan { margin-top: .5rem; } .plan[hidden] { display: none; }
button { width: 100%; margin-top: 1.25rem; padding: .8rem; font: inherit; font-weight: 700; color: #fff;
  background: var(--accent); border: 0; border-radius: 8px; cursor: pointer; }
button[disabled] { opacity: .6; cursor: progress; }
.error { color: var(--bad); font-weight: 600; margin: .75rem 0 0; }
.approved h2 { color: var(--ok); } .refused h2 { color: var(--bad); }
dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; margin: 0; }
dt { color: var(--muted); } dd { margin: 0; font-weight: 600; }
.secure { color: var(--muted); font-size: .85rem; margin-top: 1rem; text-align: center; }
`;
