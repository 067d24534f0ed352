/** Markdown tables of a `spa-session.mjs` run (its results JSON): every step, totals per style, the hint-cap probe. */
/** The tables of a run's JSON (also `--render FILE`: the .md again from a results file). */
export function render(data) {
  // Table: per fixture, variant and step kind, what reached the server, summed over the sessions' steps.
  const rows = [];
  for (const r of data.results) {
    for (const s of r.sessions) {
      for (const st of s.steps) {
        rows.push({
          fixture: r.fixture,
          variant: s.variant,
          session: s.style,
          step: st.name,
          style: st.style,
          doc: st.documentNav ? 'yes' : '',
          ms: st.shownMs ?? '',
          pk: st.server.packages,
          obj: st.server.objects,
          tgt: st.server.objectsInTarget,
          some: st.server.objectsInSomePackage,
          none: st.server.objectsInNoPackage,
          data: st.server.data,
          docs: st.server.documents,
          own: st.server.own,
          n304: st.server.notModified,
          hints: st.hintedThisStep.join(' '),
          notHinted: st.newVisibleNotHinted.join(' '),
          err: st.error ? 'timeout' : '',
        });
      }
    }
  }
  const COLS = [
    'fixture',
    'variant',
    'session',
    'step',
    'doc',
    'ms',
    'pk',
    'obj',
    'tgt',
    'some',
    'none',
    'data',
    'docs',
    'own',
    'n304',
    'hints',
    'notHinted',
    'err',
  ];
  const md = [
    `# Client-router ` +
      (`sessions${data.trace ? ' (built with --trace)' : ''}` +
        `${data.rttMs ? `, ${data.rttMs} ms added per request` : ''}`) +
      ` (${new Date(data.started).toISOString()}, load average ${data.loadAverage.start.join(' ')} → ` +
      `${data.loadAverage.end.join(' ')})`,
    '',
    "Requests that reached the server per step. pk: packages; obj: objects (tgt: in the target page's " +
      'package closure, some: in another',
    "page's package only, none: in no package); data: fetch/XHR (Next's ?_rsc= payloads); docs: documents; " +
      "own: objpack's own files;",
    'n304: of those (not own), answered 304; hints: pages the registration snippet hinted to the worker ' +
      'during the step; doc: the step was a document navigation (not client-side); ms: interaction to target ' +
      'shown; notHinted: links that',
    'appeared with this client navigation, visible, never hinted by the registration snippet.',
    '',
    `| ${COLS.join(' | ')} |`,
    `|${COLS.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${COLS.map((c) => r[c]).join(' | ')} |`),
    '',
    '## Totals over the navigation steps (not install/home)',
    '',
    '| fixture | variant | style | steps | packages | objects (tgt/some/none) | data | documents | 304 |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  const totals = [];
  for (const r of data.results) {
    for (const s of r.sessions) {
      const byStyle = new Map();
      for (const st of s.steps.filter((x) => x.style !== '-')) {
        const key = st.style;
        const t = byStyle.get(key) ?? {
          fixture: r.fixture,
          variant: s.variant,
          session: s.style,
          style: key,
          steps: 0,
          packages: 0,
          objects: 0,
          tgt: 0,
          some: 0,
          none: 0,
          data: 0,
          documents: 0,
          n304: 0,
        };
        t.steps++;
        t.packages += st.server.packages;
        t.objects += st.server.objects;
        t.tgt += st.server.objectsInTarget;
        t.some += st.server.objectsInSomePackage;
        t.none += st.server.objectsInNoPackage;
        t.data += st.server.data;
        t.documents += st.server.documents;
        t.n304 += st.server.notModified;
        byStyle.set(key, t);
      }
      for (const t of byStyle.values()) {
        totals.push(t);
        md.push(
          `| ${t.fixture} | ${t.variant} | ${t.style === 'back' ? `back (after ${t.session})` : t.style} | ` +
            `${t.steps} | ${t.packages} | ${t.objects} (${t.tgt}/${t.some}/${t.none}) | ${t.data} | ${t.documents} ` +
            `| ${t.n304} |`,
        );
      }
    }
  }
  const probes = data.results.flatMap((r) =>
    r.sessions.filter((s) => s.capProbe).map((s) => ({ fixture: r.fixture, ...s.capProbe })),
  );
  md.push(
    '',
    '## Hint cap probe (40 hovered links to no page, after the hover session)',
    '',
    '| fixture | hinted before | probe links hinted | hinted total |',
    '|---|---:|---:|---:|',
    ...probes.map(
      (p) => `| ${p.fixture} | ${p.hintedBefore} | ${p.probeHinted} of ${p.probeLinks} | ${p.hintedTotal} |`,
    ),
  );
  return { md, totals, probes };
}
