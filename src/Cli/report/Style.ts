// The report's look: system fonts only (nothing fetched), a grid of figures, tables that read as numbers.
export const STYLE = `
:root { color-scheme: light; --ink: #111827; --muted: #6b7280; --line: #e5e7eb; }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--ink); margin: 0 auto; max-width: 1200px; padding: 24px; }
header h1 { margin: 0 0 4px; font-size: 24px; }
header p, section > p, footer { color: var(--muted); margin: 0 0 12px; }
section { margin: 28px 0; }
h2 { font-size: 19px; margin: 0 0 4px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(360px, 1fr)); gap: 18px; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 8px; padding: 12px; min-width: 0; }
figure.wide { grid-column: 1 / -1; }
figcaption { font-weight: 600; margin-bottom: 6px; }
.plot { position: relative; }
.empty { color: var(--muted); }
details { margin-top: 8px; }
summary { cursor: pointer; color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin-top: 6px; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 2px 6px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
th:not(:first-child), td:not(:first-child) { text-align: right; }
footer { margin-top: 32px; font-size: 12px; }
`
