// Renders assets/email/logo.svg into assets/email/logo.png (3x, for sharp display at 36 px):
// mail clients show PNG reliably, SVG hardly ever. Run after changing the SVG: npm run email-logo -w apps/server
import { readFileSync, writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';

const dir = new URL('../assets/email/', import.meta.url);
const svg = readFileSync(new URL('logo.svg', dir), 'utf8');
const png = new Resvg(svg, { fitTo: { mode: 'width', value: 108 } }).render().asPng();
writeFileSync(new URL('logo.png', dir), png);
console.log(`assets/email/logo.png: ${png.length} bytes`);
