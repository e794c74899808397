/** The only stylesheet, allowed by its hash (the CSP blocks inline style attributes). */
export const STYLES = `
:root{color-scheme:light dark;
--bg:#f5f6f8;--fg:#17202c;--muted:#5b6778;--card:#fff;--line:#dde2e9;--soft:#eef1f5;--accent:#2256c5;
--ro:#4a82c8;--pk:#11784a;--ky:#3fa86b;--id:#d8981c;--un:#d0424f;--none:#c8cfd9;
--ro-bg:#e5eefa;--pk-bg:#d8f1e4;--ky-bg:#e2f5e8;--id-bg:#fbefd2;--un-bg:#fbe3e5;
--ro-fg:#1c4a82;--pk-fg:#0a4f30;--ky-fg:#1c653b;--id-fg:#6e4b04;--un-fg:#931b27;
--fail-bg:#fdf0f1;--fail-line:#efc1c6;--shadow:0 1px 2px rgba(16,24,40,.06),0 1px 3px rgba(16,24,40,.08)}
@media (prefers-color-scheme:dark){:root{
--bg:#0e1218;--fg:#e3e8ef;--muted:#98a4b5;--card:#161b23;--line:#2a323e;--soft:#1d2430;--accent:#8ab0ff;
--ro:#5d9ae2;--pk:#27b176;--ky:#86d6a0;--id:#e9b544;--un:#ee6872;--none:#3b4452;
--ro-bg:#172a42;--pk-bg:#0f3326;--ky-bg:#18362a;--id-bg:#3a2c0c;--un-bg:#431b21;
--ro-fg:#b4d3fb;--pk-fg:#9ee8c3;--ky-fg:#bdf0cd;--id-fg:#f6d894;--un-fg:#ffc2c7;
--fail-bg:#2a1619;--fail-line:#5a2a31;--shadow:none}}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
main,header.top,footer{max-width:1240px;margin:0 auto;padding:0 20px}
a{color:var(--accent)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.88em}
h1{font-size:1.25rem;margin:0}
h2{font-size:1.1rem;margin:2rem 0 .75rem}
h4{font-size:.95rem;margin:1rem 0 .4rem}
h1,h2,h3,h4,figcaption,summary{overflow-wrap:break-word;word-break:normal;hyphens:manual}
.muted{color:var(--muted)}
.answers{margin:.4rem 0 0;padding-left:1.2rem}.answers li{margin:.25rem 0;overflow-wrap:anywhere}
.undeclared{color:var(--muted);white-space:nowrap}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
header.top{padding-top:24px}
.brand{display:flex;align-items:baseline;gap:.6rem;flex-wrap:wrap}
.brand .tag{font-size:.8rem;color:var(--muted);border:1px solid var(--line);border-radius:999px;padding:0 .5rem}
.meta{color:var(--muted);font-size:.88rem;margin:.3rem 0 0;overflow-wrap:anywhere}
.warning{background:var(--id-bg);color:var(--id-fg);border:1px solid var(--id);border-radius:8px;padding:.5rem .8rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;box-shadow:var(--shadow)}
.panel{margin-top:16px;padding:4px 22px 18px}.panel>h2{margin-top:.9rem}
.headline{margin-top:16px;padding:22px 24px;display:grid;grid-template-columns:minmax(0,1fr) auto;gap:18px 32px;align-items:center}
.headline h2{margin:0;font-size:1.35rem;line-height:1.3;font-weight:600}
.headline .big{display:block;font-size:3rem;line-height:1.05;font-weight:750;letter-spacing:-.02em;color:var(--fg)}
.headline .big .of{color:var(--fg)}
.headline .big.good{color:var(--pk)}.headline .big.warn{color:var(--id-fg)}
.headline .big.none{color:var(--muted)}.headline .big.bad{color:var(--un-fg)}
.headline p{margin:.6rem 0 0;color:var(--muted)}
.headline strong{color:var(--fg)}
.stats{display:grid;grid-template-columns:repeat(2,minmax(7.5rem,auto));gap:10px;margin:0}
.stats div{background:var(--soft);border-radius:10px;padding:8px 12px}
.stats dt{font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted)}
.stats dd{margin:0;font-size:1.35rem;font-weight:650;font-variant-numeric:tabular-nums}
.stats dd small{font-size:.8rem;font-weight:400;color:var(--muted)}
.chart{margin:0;padding:18px 22px}
.charts{display:grid;grid-template-columns:minmax(0,1fr);gap:16px;margin-top:16px}
figcaption{font-weight:600;margin-bottom:.6rem}
.per-server figcaption{font-weight:400;color:var(--muted);font-size:.9rem}
svg.bar{display:block;width:100%;height:14px;border-radius:3px;overflow:hidden;background:var(--none)}
svg.bar-big{height:28px;border-radius:6px}
.f-ro{fill:var(--ro)}.f-pk{fill:var(--pk)}.f-ky{fill:var(--ky)}.f-id{fill:var(--id)}.f-un{fill:var(--un)}.f-none{fill:var(--none)}
.legend{list-style:none;margin:14px 0 0;padding:0;display:grid;grid-template-columns:auto auto auto auto 1fr;gap:4px 12px;align-items:center}
.legend li{display:contents}
.legend .swatch{width:14px;height:14px}
.legend .verdict-name{font-weight:600;white-space:nowrap}
.legend-n,.legend-p{text-align:right;font-variant-numeric:tabular-nums}
.legend-p,.legend-m{color:var(--muted)}
.legend-m{font-size:.88rem}
.bars{list-style:none;margin:0;padding:0;display:grid;gap:6px}
.bars li{display:grid;grid-template-columns:minmax(6rem,15rem) minmax(0,1fr) 3.5rem;gap:10px;align-items:center}
.bar-label{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:.9rem;color:var(--fg);text-decoration:none}
.bar-label:hover{text-decoration:underline}
.bar-n{text-align:right;font-variant-numeric:tabular-nums;color:var(--muted);font-size:.88rem}
.controls{display:flex;flex-wrap:wrap;align-items:center;gap:8px 12px;margin:.5rem 0}
.controls label{font-weight:600;font-size:.9rem}
.controls output{color:var(--muted);font-size:.88rem}
input[type=search],select{font:inherit;color:var(--fg);background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.35rem .6rem}
input[type=search]{min-width:16rem;max-width:100%}
input:focus-visible,select:focus-visible,button:focus-visible,a:focus-visible,summary:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.actions{display:flex;gap:8px;flex-wrap:wrap}
.actions button,.btn{font:inherit;font-size:.88rem;color:var(--fg);background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.3rem .75rem;cursor:pointer}
.actions button:hover{background:var(--soft)}
.section-head{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:8px}
.table-wrap{overflow-x:auto;background:var(--card);border:1px solid var(--line);border-radius:10px}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;vertical-align:top;padding:.45rem .65rem;border-bottom:1px solid var(--line)}
tbody tr:last-child>*{border-bottom:0}
thead th{background:var(--soft);font-size:.8rem;font-weight:600;color:var(--muted);white-space:nowrap;padding:0}
thead th:not([data-sort]){padding:.45rem .65rem;white-space:normal}
table.servers button.sort{padding:.45rem .5rem}
button.sort{all:unset;display:flex;gap:4px;align-items:center;cursor:pointer;padding:.45rem .65rem;width:100%;box-sizing:border-box}
button.sort:focus-visible{outline:2px solid var(--accent);outline-offset:-2px}
.sort-mark::after{content:"↕";opacity:.35}
th[aria-sort=ascending] .sort-mark::after{content:"▲";opacity:1}
th[aria-sort=descending] .sort-mark::after{content:"▼";opacity:1}
th[aria-sort]{color:var(--fg)}
tbody th{font-weight:600}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.good{color:var(--pk-fg);font-weight:600}td.warn{color:var(--id-fg);font-weight:600}td.bad{color:var(--un-fg);font-weight:600}
.sub{display:block;font-weight:400;font-size:.8rem;color:var(--muted)}
summary .sub{display:inline}
tr.failed{background:var(--fail-bg)}
.status{font-size:.8rem;font-weight:600;padding:1px 8px;border-radius:999px;white-space:nowrap}
.status-ok{background:var(--pk-bg);color:var(--pk-fg)}
.status-failed{background:var(--un-bg);color:var(--un-fg)}
.kind{font-family:ui-monospace,monospace;font-size:.8rem;font-weight:600;background:var(--un-bg);color:var(--un-fg);border-radius:4px;padding:0 5px}
td.failure{min-width:10rem;overflow-wrap:anywhere}
table.servers thead th{white-space:normal}
table.servers tbody th{min-width:10rem;max-width:18rem;overflow-wrap:break-word}
table.servers td{white-space:nowrap}
table.servers td.failure{white-space:normal}
.failures{list-style:none;padding:0;margin:0;display:grid;gap:10px}
.failures li,.failure-box{background:var(--fail-bg);border:1px solid var(--fail-line);border-radius:10px;padding:10px 14px;overflow-wrap:anywhere}
.failure-box p{margin:.2rem 0}
pre.stderr{margin:.5rem 0 0;padding:8px 10px;background:var(--card);border:1px solid var(--line);border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:16rem;overflow:auto}
.verdict{display:inline-block;white-space:nowrap;font-weight:600;font-size:.82rem;padding:1px 9px;border-radius:999px;border:1px solid}
.v-ro,.c-ro{background:var(--ro-bg);color:var(--ro-fg);border-color:var(--ro)}
.v-pk,.c-pk{background:var(--pk-bg);color:var(--pk-fg);border-color:var(--pk)}
.v-ky,.c-ky{background:var(--ky-bg);color:var(--ky-fg);border-color:var(--ky)}
.v-id,.c-id{background:var(--id-bg);color:var(--id-fg);border-color:var(--id)}
.v-un,.c-un{background:var(--un-bg);color:var(--un-fg);border-color:var(--un)}
details.server{background:var(--card);border:1px solid var(--line);border-radius:10px;margin:8px 0;box-shadow:var(--shadow)}
details.server.failed{border-color:var(--fail-line)}
.large details.server{content-visibility:auto;contain-intrinsic-size:auto 46px}
details.server>summary{cursor:pointer;padding:.65rem .9rem;display:flex;flex-wrap:wrap;align-items:center;gap:.4rem .6rem;list-style:none}
details.server>summary::-webkit-details-marker{display:none}
details.server>summary::before{content:"▸";color:var(--muted);transition:transform .15s}
details.server[open]>summary::before{transform:rotate(90deg)}
details.server[open]>summary{border-bottom:1px solid var(--line)}
.server-name{font-weight:650;overflow-wrap:break-word}
.chips{display:flex;flex-wrap:wrap;gap:4px;margin-left:auto}
.chip{font-size:.75rem;padding:0 8px;border-radius:999px;border:1px solid var(--line);background:var(--soft);white-space:nowrap}
.chip-failed{background:var(--un-bg);color:var(--un-fg);border-color:var(--un)}
.server-body{padding:.5rem .9rem .9rem}
.server-body .table-wrap{border-radius:8px}
.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 14px;margin:.3rem 0 .6rem;font-size:.88rem}
.facts dt{color:var(--muted)}
.facts dd{margin:0;overflow-wrap:anywhere}
ul.plain{list-style:none;margin:0;padding:0}
ul.plain li+li{margin-top:2px}
.tool-name{font-weight:650;font-size:.9rem;overflow-wrap:break-word}
.desc{font-weight:400;color:var(--muted);font-size:.82rem;max-width:42ch;overflow-wrap:anywhere;display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden}
table.tools td{overflow-wrap:anywhere}
table.tools td code{overflow-wrap:break-word}
/* A table cell's width follows its narrowest content: the floor keeps ordinary words whole, only longer tokens break. */
table.tools td.title,table.tools .tool-name{overflow-wrap:anywhere;word-break:normal;hyphens:manual}
@media (min-width:1280px){
table.tools tbody th{min-width:11rem}
table.tools td:nth-child(2){min-width:10rem;max-width:16rem}
table.tools td:nth-child(4){min-width:12.5rem}
table.tools td:nth-child(5){min-width:8rem}
table.tools td:nth-child(6){min-width:10rem}
table.tools td:nth-child(7){min-width:12rem}}
.effective{font-size:.82rem;color:var(--muted)}
td.hints{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.8rem;line-height:1.6}
.conf{font-size:.72rem;border-radius:4px;padding:0 5px;border:1px solid var(--line)}
.conf-strong{background:var(--pk-bg);color:var(--pk-fg)}
.conf-weak{background:var(--soft);color:var(--muted)}
.sev{font-size:.72rem;font-weight:600;border-radius:4px;padding:0 5px;text-transform:uppercase}
.sev-error{background:var(--un-bg);color:var(--un-fg)}.sev-warning{background:var(--id-bg);color:var(--id-fg)}.sev-info{background:var(--soft);color:var(--muted)}
.findings{font-size:.82rem}
.rule{font-family:ui-monospace,monospace;font-weight:600}
.findings .msg{color:var(--muted)}
.findings .suppressed{opacity:.55}.findings .suppressed .sev{text-decoration:line-through}
.findings .fix,.findings .suppressed-why{display:block;color:var(--muted)}
footer{color:var(--muted);font-size:.85rem;padding-top:24px;padding-bottom:40px}
footer dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px}
footer dd{margin:0;overflow-wrap:anywhere}
/* Eleven columns need about 1,150px: narrower, each server is a card of labelled figures. */
@media (max-width:1199px){
table.servers,table.servers thead,table.servers tbody,table.servers th,table.servers td{display:block}
table.servers thead tr{display:flex;flex-wrap:wrap;gap:4px;padding:8px}
table.servers thead th{border:1px solid var(--line);border-radius:999px;background:var(--card)}
table.servers thead button.sort{padding:.15rem .6rem}
table.servers tbody tr{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:2px 12px;padding:.6rem .75rem;border-top:1px solid var(--line)}
table.servers tbody th{grid-column:1/-1;min-width:0;max-width:none;border:0;padding:0 0 .25rem}
table.servers td{border:0;padding:0;text-align:left;white-space:normal}
table.servers td.empty{display:none}
table.servers td.failure{grid-column:1/-1;min-width:0}
table.servers td::before{color:var(--muted);font-size:.75rem;font-weight:400;margin-right:.4rem}
table.servers td:nth-child(2)::before{content:"Status"}
table.servers td:nth-child(3)::before{content:"Era"}
table.servers td:nth-child(4)::before{content:"Protocol"}
table.servers td:nth-child(5)::before{content:"Tools"}
table.servers td:nth-child(6)::before{content:"Read-only"}
table.servers td:nth-child(7)::before{content:"Protected"}
table.servers td:nth-child(8)::before{content:"Hint only"}
table.servers td:nth-child(9)::before{content:"Unprotected"}
table.servers td:nth-child(10)::before{content:"No hints"}
table.servers td:nth-child(11)::before{content:"Failure"}
}
/* Seven columns of tools fit the widest card (1,167px) only: narrower, each tool is a card. */
@media (max-width:1279px){
table.tools thead tr{display:flex;flex-wrap:wrap;gap:4px;padding:8px}
table.tools thead th{border:1px solid var(--line);border-radius:999px;background:var(--card)}
table.tools thead button.sort{padding:.15rem .6rem}
table.tools,table.tools thead,table.tools tbody,table.tools tr,table.tools th,table.tools td{display:block;width:auto;max-width:none}
table.tools tr{padding:.5rem .7rem;border-bottom:1px solid var(--line)}
table.tools th,table.tools td{border:0;padding:.15rem 0}
table.tools td{display:grid;grid-template-columns:7.5rem minmax(0,1fr);gap:8px;align-items:baseline;justify-items:start}
table.tools td.empty{display:none}
table.tools td::before{font-size:.75rem;color:var(--muted)}
table.tools td:nth-child(2)::before{content:"Title"}
table.tools td:nth-child(3)::before{content:"Verdict"}
table.tools td:nth-child(4)::before{content:"Hints as received"}
table.tools td:nth-child(5)::before{content:"Effective"}
table.tools td:nth-child(6)::before{content:"Key arguments"}
table.tools td:nth-child(7)::before{content:"Findings"}
.desc{max-width:none}
}
@media (max-width:760px){
body{font-size:14px}
main,header.top,footer{padding:0 12px}
.headline{grid-template-columns:1fr;padding:16px}
.panel{padding:2px 16px 14px}
.headline .big{font-size:2.4rem}
.chart{padding:14px}
.legend{grid-template-columns:auto auto auto auto}
.legend-m{display:none}
.bars li{grid-template-columns:minmax(0,1fr) 2.5rem}
.bar-label{grid-column:1/-1}
input[type=search]{min-width:0;flex:1}
table.tools thead{display:none}
}
@media print{
:root{--bg:#fff;--card:#fff;--fg:#000;--muted:#444;--line:#bbb;--soft:#f0f0f0;--shadow:none}
html{font-size:11px}
body{font-size:1rem;background:#fff}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
.js-only,.controls,.actions,.sort-mark{display:none!important}
details::details-content,.large details.server{content-visibility:visible}
details.server>summary::before{content:none}
details.server,.card,tr,.failures li{break-inside:avoid}
details.server{break-inside:auto}
.table-wrap{overflow:visible}
.desc{display:block;-webkit-line-clamp:unset;max-width:none}
a{color:inherit;text-decoration:none}
main,header.top,footer{max-width:none;padding:0}
table{font-size:1rem}
th,td{padding:.3rem .4rem}
table.tools td{min-width:0!important}
table.tools tbody th{min-width:10rem}
table.tools td:nth-child(4){min-width:13rem!important}
td.failure{min-width:0}
table.servers td{white-space:normal}
}
`;
