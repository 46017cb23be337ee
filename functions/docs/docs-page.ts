/**
 * A self-contained HTML page describing the API from the OpenAPI document: no CDN or script bundle, so it works
 * on machines without internet access.
 */
type Operation = {
  tags?: string[];
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: unknown;
  responses?: Record<string, { description?: string }>;
  'x-required-role'?: string;
  'x-unscoped-key-only'?: boolean;
};

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function renderDocsPage(document: {
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
}): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'Other';
      const params = (op.parameters ?? [])
        .map((p) => `${p.name} (${p.in}${p.required ? ', required' : ''})`)
        .join(', ');
      const statuses = Object.entries(op.responses ?? {})
        .map(
          ([code, r]) =>
            `<span class="s s${code[0]}" title="${escapeHtml(r.description ?? '')}">${code}</span>`,
        )
        .join(' ');
      const role = op['x-required-role']
        ? `${op['x-required-role']}${op['x-unscoped-key-only'] ? ', unscoped key' : ''}`
        : 'public';
      const row = `<tr><td class="m ${method}">${method.toUpperCase()}</td><td><code>${escapeHtml(path)}</code><div>${escapeHtml(op.summary ?? '')}</div>${params ? `<small>${escapeHtml(params)}</small>` : ''}${op.requestBody ? '<small> · JSON body</small>' : ''}</td><td>${escapeHtml(role)}</td><td>${statuses}</td></tr>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), row]);
    }
  }
  const sections = [...byTag]
    .map(
      ([tag, rows]) =>
        `<h2>${escapeHtml(tag)}</h2><table><tr><th></th><th>Route</th><th>Role</th><th>Responses</th></tr>${rows.join('')}</table>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(document.info.title)}</title>
<style>body{font:14px/1.5 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1b1b1b}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e3e3e3;padding:6px;text-align:left;vertical-align:top}
.m{font-weight:700;width:70px}.get{color:#0a7}.post{color:#06c}.put{color:#a60}.delete{color:#c22}.patch{color:#a0a}
.s{display:inline-block;padding:0 5px;border-radius:3px;background:#eee;margin:1px}.s2{background:#d7f5e3}.s4{background:#fde7d0}.s5{background:#f9d2d2}
small{color:#666;display:block}</style></head><body>
<h1>${escapeHtml(document.info.title)} <small>version ${escapeHtml(document.info.version)} · <a href="/api/openapi.json">openapi.json</a></small></h1>
<p>Send your key as <code>X-API-Key: wg_…</code> or <code>Authorization: Bearer wg_…</code>. Errors are JSON: <code>{statusCode, error, message, code}</code>.</p>
${sections}</body></html>`;
}
