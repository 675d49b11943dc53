/// The page's inline stylesheet and script. Colours: the calendar bands are ColorBrewer's
/// YlGnBu (colour-blind safe, and light to dark as the goal is approached), grey for no data.
enum ReportStyle {
    static let css = """
    :root{--ink:#1d2733;--muted:#5b6776;--card:#fff;--bg:#f3f5f8;--accent:#2c7fb8;--move:#e0245e;--exercise:#5ec24a;--stand:#1fb5d8;
    --b0:#ffffcc;--b1:#a1dab4;--b2:#41b6c4;--b3:#2c7fb8;--b4:#253494;--nd:#d9d9d9;
    --deep:#253494;--core:#2c7fb8;--rem:#41b6c4;--unspec:#7fcdbb;--awake:#fdae61;--inbed:#c6d3e0}
    *{box-sizing:border-box}body{margin:0;font:15px/1.45 -apple-system,system-ui,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
    header{background:#1d2733;color:#fff;padding:16px 20px 0}header h1{margin:0;font-size:22px}header p{margin:4px 0 10px;color:#c9d3df;font-size:13px}
    nav{display:flex;flex-wrap:wrap;gap:2px 4px}nav a{color:#fff;text-decoration:none;padding:8px 10px;border-radius:8px 8px 0 0;font-size:14px;white-space:nowrap}nav a:hover{background:#2f3c4b}
    main{max-width:1200px;margin:0 auto;padding:12px}section{margin:18px 0}h2{font-size:19px;margin:8px 4px}h3{font-size:15px;margin:0 0 6px}
    .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,330px),1fr));gap:12px}.cards>*{min-width:0}
    .card{background:var(--card);border-radius:14px;padding:14px;box-shadow:0 1px 3px #0001}.card.wide{margin:10px 0}
    .rings{display:flex;gap:12px;align-items:center;flex-wrap:wrap}.rings svg{width:150px;flex:none}.rings ul{list-style:none;margin:0;padding:0;flex:1;min-width:min(100%,200px)}
    .goalbar{display:grid;grid-template-columns:1fr auto;gap:0 8px;margin:4px 0;font-size:14px}.goalbar span{color:var(--muted)}.goalbar small{font-weight:400;font-size:13px;color:var(--muted)}
    .goalbar meter{grid-column:1/3;width:100%;height:8px}.goalbar em{grid-column:1/3;font-style:normal;font-size:12px;color:var(--muted)}
    .chart{overflow-x:auto;max-width:100%}svg{width:100%;height:auto;display:block}.bar{fill:var(--accent)}.bar.met{fill:var(--b4)}.bar.hi{stroke:var(--ink);stroke-width:2}.prev{fill:#c6d3e0}.goal{stroke:#e0245e;stroke-dasharray:4 3;stroke-width:1.5}
    .val,.lbl,.axis,.unit{font-size:11px;fill:var(--muted);text-anchor:middle}.axis{text-anchor:end}.unit{text-anchor:start;font-weight:600}.grid{stroke:#e3e7ec}.tick{stroke:#b8c2cc}
    .track{fill:none;stroke:#eceff3}.ring{fill:none;stroke-linecap:round}.ring.move{stroke:var(--move)}.ring.exercise{stroke:var(--exercise)}.ring.stand{stroke:var(--stand)}
    .deep{fill:var(--deep);background:var(--deep)}.core{fill:var(--core);background:var(--core)}.rem{fill:var(--rem);background:var(--rem)}
    .unspec{fill:var(--unspec);background:var(--unspec)}.awake{fill:var(--awake);background:var(--awake)}
    .inbed{fill:var(--inbed);background:var(--inbed)}
    .span{stroke:var(--accent);stroke-width:5;stroke-linecap:round}.line{fill:none;stroke:var(--move);stroke-width:2}.dot{fill:var(--move)}
    .big{font-size:20px;font-weight:600;margin:2px 0 8px}.note{color:var(--muted);font-size:13px;margin:2px 4px 8px}.empty{color:var(--muted)}
    input[type=radio]{position:absolute;opacity:0;pointer-events:none}
    .tab,.chip{display:inline-block;padding:6px 14px;margin:0 4px 8px 0;border-radius:999px;background:#e3e8ee;cursor:pointer;font-size:14px}
    #view-week:checked+.tab,#view-month:checked+.tab,#view-year:checked+.tab,#mm-steps:checked+.chip,#mm-energy:checked+.chip,#mm-exercise:checked+.chip,#mm-sleep:checked+.chip{background:var(--ink);color:#fff}
    .view{display:none}#view-week:checked~.views .week,#view-month:checked~.views .month,#view-year:checked~.views .year{display:block}
    select{font:inherit;padding:5px 8px;border-radius:8px;border:1px solid #c3ccd6;background:#fff;margin:0 0 8px}
    .mon,.yr{display:none}.mon.on,.yr.on{display:block}.months>.mon>div{display:none}
    #mm-steps:checked~.months .on .m-steps,#mm-energy:checked~.months .on .m-energy,#mm-exercise:checked~.months .on .m-exercise,#mm-sleep:checked~.months .on .m-sleep{display:block}
    #quality .months{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,250px),1fr));gap:8px 18px}
    .cal{display:grid;grid-template-columns:repeat(7,1fr);gap:4px;max-width:460px}.cal b{font-size:12px;color:var(--muted);text-align:center;font-weight:600}
    .cal i{aspect-ratio:1;border-radius:8px;font-style:normal;font-size:12px;display:flex;align-items:flex-start;justify-content:flex-end;padding:3px 5px;cursor:pointer}
    .heat{display:grid;grid-auto-flow:column;grid-template-rows:repeat(7,1fr);gap:2px;overflow-x:auto;margin:8px 0}.heat i{width:11px;height:11px;border-radius:2px;cursor:pointer}
    i.b0{background:var(--b0)}i.b1{background:var(--b1)}i.b2{background:var(--b2)}i.b3{background:var(--b3);color:#fff}i.b4{background:var(--b4);color:#fff}i.nd{background:var(--nd);color:#777}i.pt{outline:2px dashed var(--muted);outline-offset:-2px}i.tr{box-shadow:inset 0 -3px 0 var(--muted)}
    .legend{display:flex;flex-wrap:wrap;gap:4px 12px;font-size:12px;color:var(--muted);margin:8px 0}.legend span{display:flex;align-items:center;gap:4px}.legend i{width:12px;height:12px;border-radius:3px;display:inline-block}.sw.move{background:var(--move)}.sw.exercise{background:var(--exercise)}.sw.stand{background:var(--stand)}.ringlegend{flex-direction:column;max-width:190px}
    table{border-collapse:collapse;width:100%;background:#fff;border-radius:12px;font-size:13px}th,td{padding:6px 8px;text-align:left;border-bottom:1px solid #eef1f4;white-space:nowrap}th{background:#e9eef3}td.num,th.num{text-align:right}
    .changes{background:#fff;border-radius:14px;padding:10px 14px;margin:10px 0}.changes ul{margin:4px 0;padding-left:20px}.changes li{margin:2px 0}
    .insights{list-style:none;padding:0;margin:0;display:grid;gap:8px}.insights li{background:#fff;border-left:4px solid var(--accent);border-radius:10px;padding:10px 12px}
    #tip{position:fixed;z-index:9;background:#1d2733;color:#fff;padding:6px 9px;border-radius:8px;font-size:13px;pointer-events:none;max-width:260px}
    @media (max-width:600px){main{padding:8px}header{padding:12px 12px 0}.cards{grid-template-columns:1fr}.rings svg{width:120px}h2{font-size:18px}.card{padding:12px}
    table{display:block;overflow-x:auto;max-width:100%}}
    @media print{@page{size:A4;margin:12mm}body{background:#fff;font-size:11pt}header{background:#fff;color:#000;padding:0}header p{color:#333}
    nav,select,.tab,.chip,input,#tip,#trends,#quality,.noprint{display:none!important}
    main{max-width:none;padding:0}section{margin:6px 0}.cards{grid-template-columns:repeat(3,1fr);gap:6px}
    .card{box-shadow:none;border:1px solid #ccc;padding:6px;break-inside:avoid}.card.wide{margin:4px 0}
    .chart{overflow:visible}svg{min-width:0!important;max-height:150px}.rings svg{width:90px}
    #workouts table tr:nth-child(n+9),#heart table tr:nth-child(n+7),#vitals table tr:nth-child(n+7){display:none}table{display:table;font-size:9pt}
    h2{font-size:13pt;margin:4px 0}h3{font-size:11pt}.note{font-size:9pt}}
    """

    /// Month and year pickers, and a tooltip with the exact value of a day cell.
    static let script = """
    (function(){
    function pick(sel,cls,attr){var s=document.getElementById(sel);if(!s)return;s.addEventListener('change',function(){
    document.querySelectorAll(cls).forEach(function(e){e.classList.toggle('on',e.getAttribute(attr)===s.value)})})}
    pick('month-pick','.mon','data-month');pick('year-pick','.yr','data-year');
    var names={steps:'steps',active_energy_kcal:'kcal',exercise_minutes:'min of exercise',sleep_total_minutes:'min asleep',stand_hours:'stand hours'};
    var tip=document.getElementById('tip');
    function show(ev){var c=ev.target;if(!c.dataset||!c.dataset.date){tip.hidden=true;return}
    var v=c.dataset.value,m=c.dataset.metric,t=c.dataset.date+(c.dataset.zone?' (in '+c.dataset.zone.replace(/_/g,' ')+' time)':'')+': ';
    if(v===''){t+='no data'}else{t+=Number(v).toLocaleString('en-US',{maximumFractionDigits:1})+' '+(names[m]||m)}
    tip.textContent=t;tip.hidden=false;var x=Math.min(ev.clientX+12,window.innerWidth-270);tip.style.left=x+'px';tip.style.top=(ev.clientY+14)+'px'}
    document.addEventListener('mouseover',show);document.addEventListener('click',show);
    // A chart wider than the screen scrolls in its own box: open it at its right end, the
    // latest data (issue 45: on a phone the sleep chart opened at the first two weeks).
    document.querySelectorAll('.chart').forEach(function(c){if(c.scrollWidth>c.clientWidth+1)c.scrollLeft=c.scrollWidth});
    console.log('report ready');
    })();
    """
}
