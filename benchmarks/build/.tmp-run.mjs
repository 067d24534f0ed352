const { build } = await import('objpack');
const t = performance.now();
const r = await build({ root: process.argv[2], cache: false, report: true });
console.log(JSON.stringify({ ms: Math.round(performance.now() - t), t: r.timings }));
