/**
 * The widget's stylesheet, scoped by its shadow root. `:host` rules are `!important` because, across the
 * shadow boundary, an important declaration from inside beats the host page's (even `* {… !important}`);
 * `all: initial` stops inherited host styles (colour, font, spacing) at the boundary. Custom properties
 * live on the inner root, which page selectors cannot reach. Sizes are in px: `rem` would follow the
 * page's root font size.
 */
export const WIDGET_CSS = `
:host{all:initial!important;display:block!important;visibility:visible!important;opacity:1!important;position:static!important;max-width:100%!important;margin:0!important}
.mh{--bg:#fff;--fg:#0f172a;--muted:#64748b;--line:#e2e8f0;--card:#f8fafc;--card-hover:#eef2ff;--accent:#4f46e5;--shadow:0 1px 2px rgba(15,23,42,.06),0 8px 24px rgba(15,23,42,.08);
display:block;box-sizing:border-box;padding:16px;border:1px solid var(--line);border-radius:14px;background:var(--bg);color:var(--fg);box-shadow:var(--shadow);
font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;text-align:left;-webkit-font-smoothing:antialiased}
.mh[data-scheme=dark]{--bg:#0f172a;--fg:#f1f5f9;--muted:#94a3b8;--line:#1e293b;--card:#16213a;--card-hover:#1e2b4a;--accent:#a5b4fc;--shadow:0 1px 2px rgba(0,0,0,.4),0 8px 24px rgba(0,0,0,.35)}
.mh *,.mh *::before,.mh *::after{box-sizing:border-box}
.mh.no-border{border:0}
.mh.no-shadow{box-shadow:none}
.mh.no-padding{padding:0}
.title{margin:0 0 12px;font-size:16px;font-weight:650;line-height:1.3;letter-spacing:-.01em;overflow-wrap:anywhere}
.grid{display:grid;gap:10px;margin:0;padding:0;list-style:none;
grid-template-columns:repeat(auto-fill,minmax(max(190px,calc((100% - (var(--cols) - 1) * 10px) / var(--cols))),1fr))}
.mh.vertical .grid{grid-template-columns:minmax(0,1fr);gap:8px}
.item{display:block;min-width:0;margin:0;padding:0}
.card{display:flex;align-items:center;gap:12px;height:100%;min-width:0;padding:10px 12px;border:1px solid var(--line);border-radius:10px;background:var(--card);color:inherit;text-decoration:none;transition:background-color .15s,border-color .15s}
.card:hover{background:var(--card-hover);border-color:var(--accent)}
.card:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.avatar{flex:none;display:grid;place-items:center;width:38px;height:38px;border-radius:9px;background:hsl(var(--hue) 50% 36%);color:#fff;font-size:19px;font-weight:700;text-transform:uppercase}
.body{display:flex;flex:1;flex-direction:column;min-width:0}
.name,.owner{overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
.name{font-weight:600}
.owner{color:var(--muted);font-size:12px}
.meta{display:flex;flex-wrap:wrap;gap:2px 10px;margin-top:3px;color:var(--muted);font-size:12px}
.task{color:var(--accent)}
.mh.vertical .card{padding:8px 12px}
.credits{display:block;margin-top:12px;text-align:right;font-size:12px}
.credits a{color:var(--muted);text-decoration:none}
.credits a:hover{color:var(--accent);text-decoration:underline}
.note{margin:0;padding:14px;border:1px dashed var(--line);border-radius:10px;color:var(--muted);font-size:13px;text-align:center}
.skeleton{height:62px;border:1px solid var(--line);border-radius:10px;background:var(--card);animation:pulse 1.2s ease-in-out infinite}
@keyframes pulse{50%{opacity:.55}}
@media (prefers-reduced-motion:reduce){.skeleton{animation:none}.card{transition:none}}
`;
