import { build } from 'objpack';
const t = performance.now();
const r = await build({ root: process.argv[2], quiet: true, report: false, cache: false });
console.log(JSON.stringify({ ms: Math.round(performance.now() - t), timings: r.timings, pages: r.summary.pages }));
