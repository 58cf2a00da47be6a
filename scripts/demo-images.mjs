#!/usr/bin/env node
// Draws the demo studio's pictures (coaches, class types, the hero) as SVG
// scenes and writes them as JPEG with Debian's Chromium, at the largest size
// the portal shows them: no stock photos can be fetched here, and a generated
// picture has no licence to track. Run it after changing a scene:
//   node scripts/demo-images.mjs      (writes portal/public/demo/…)
// Each file stays under 40 KB (the script fails otherwise).
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
// Playwright is the e2e workspace's dependency.
const { chromium } = createRequire(path.join(root, 'e2e', 'package.json'))('playwright');
const demo = path.join(root, 'portal', 'public', 'demo');
const MAX_BYTES = 40 * 1024;

const blur = (id, s) => `<filter id="${id}" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="${s}"/></filter>`;

/** A studio wall behind a person: window light, a plant, soft focus. */
function studioBackdrop(w, h, { wall, light, accent }) {
  return `
  <defs>
    <linearGradient id="wall" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${wall[0]}"/><stop offset="1" stop-color="${wall[1]}"/></linearGradient>
    <radialGradient id="glow" cx="0.25" cy="0.2" r="0.7"><stop offset="0" stop-color="${light}" stop-opacity="0.85"/><stop offset="1" stop-color="${light}" stop-opacity="0"/></radialGradient>
    ${blur('soft', 14)}${blur('softer', 28)}
  </defs>
  <rect width="${w}" height="${h}" fill="url(#wall)"/>
  <g filter="url(#softer)">
    <rect x="${w * 0.05}" y="${h * 0.05}" width="${w * 0.32}" height="${h * 0.55}" rx="8" fill="${light}" opacity="0.55"/>
    <rect x="${w * 0.2}" y="${h * 0.05}" width="${w * 0.02}" height="${h * 0.55}" fill="${wall[1]}" opacity="0.5"/>
    <ellipse cx="${w * 0.9}" cy="${h * 0.42}" rx="${w * 0.12}" ry="${h * 0.16}" fill="${accent}" opacity="0.75"/>
    <ellipse cx="${w * 0.84}" cy="${h * 0.32}" rx="${w * 0.08}" ry="${h * 0.1}" fill="${accent}" opacity="0.6"/>
    <rect x="${w * 0.86}" y="${h * 0.55}" width="${w * 0.08}" height="${h * 0.12}" rx="6" fill="#c9a27c"/>
    <rect x="0" y="${h * 0.8}" width="${w}" height="${h * 0.2}" fill="#b58863" opacity="0.5"/>
  </g>
  <rect width="${w}" height="${h}" fill="url(#glow)"/>`;
}

const hairStyles = {
  // Long hair falls behind the shoulders; drawn before the face.
  long: (c) => `<path d="M150 170 C140 90 200 60 240 60 C290 60 345 95 335 175 C345 260 350 330 360 390 L120 390 C132 330 140 250 150 170Z" fill="${c}"/>`,
  bun: (c) => `<circle cx="240" cy="72" r="34" fill="${c}"/><path d="M160 180 C150 110 200 82 240 82 C285 82 332 110 322 182 C312 150 280 128 240 128 C200 128 168 150 160 180Z" fill="${c}"/>`,
  short: (c) => `<path d="M162 175 C152 105 200 74 242 74 C288 74 332 104 320 176 C314 140 286 118 242 116 C200 118 170 138 162 175Z" fill="${c}"/>`,
  ponytail: (c) => `<path d="M300 120 C360 130 372 220 340 300 C332 240 320 190 296 160Z" fill="${c}"/><path d="M160 178 C150 108 200 78 240 78 C286 78 330 106 322 178 C310 142 282 122 240 122 C200 122 170 142 160 178Z" fill="${c}"/>`,
  curly: (c) => `${[[175, 130], [205, 95], [245, 85], [285, 95], [312, 128], [322, 170], [160, 170]].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="34" fill="${c}"/>`).join('')}`,
};

/** A coach's portrait, waist up, 480×600. */
function portrait({ skin, shade, hair, style, top, topShade, wall, light, accent, beard }) {
  const [w, h] = [480, 600];
  const front = style === 'long' ? '' : hairStyles[style](hair);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  ${studioBackdrop(w, h, { wall, light, accent })}
  <defs>
    <radialGradient id="face" cx="0.4" cy="0.35" r="0.75"><stop offset="0" stop-color="${skin}"/><stop offset="1" stop-color="${shade}"/></radialGradient>
    <linearGradient id="top" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${topShade}"/></linearGradient>
  </defs>
  <ellipse cx="240" cy="600" rx="230" ry="40" fill="#000" opacity="0.12" filter="url(#soft)"/>
  ${style === 'long' ? hairStyles.long(hair) : ''}
  <path d="M210 255 L270 255 L276 320 L204 320Z" fill="${shade}"/>
  <path d="M40 600 C50 430 120 350 205 318 C225 338 255 338 275 318 C360 350 430 430 440 600Z" fill="url(#top)"/>
  <path d="M205 318 C225 345 255 345 275 318 C262 360 218 360 205 318Z" fill="${shade}" opacity="0.8"/>
  <path d="M120 600 C130 500 150 440 170 410" stroke="${topShade}" stroke-width="6" fill="none" opacity="0.5"/>
  <path d="M360 600 C350 500 330 440 310 410" stroke="${topShade}" stroke-width="6" fill="none" opacity="0.5"/>
  <ellipse cx="240" cy="185" rx="78" ry="96" fill="url(#face)"/>
  <ellipse cx="163" cy="192" rx="12" ry="20" fill="${shade}"/><ellipse cx="317" cy="192" rx="12" ry="20" fill="${shade}"/>
  ${front}
  <path d="M196 168 q16 -9 30 0 M254 168 q16 -9 30 0" stroke="${hair}" stroke-width="5" fill="none" stroke-linecap="round" opacity="0.85"/>
  <ellipse cx="211" cy="188" rx="8" ry="6" fill="#2b1d16"/><ellipse cx="269" cy="188" rx="8" ry="6" fill="#2b1d16"/>
  <circle cx="213" cy="186" r="2" fill="#fff" opacity="0.8"/><circle cx="271" cy="186" r="2" fill="#fff" opacity="0.8"/>
  <path d="M240 195 q-7 24 -2 28 q5 2 9 -1" stroke="${shade}" stroke-width="4" fill="none" stroke-linecap="round"/>
  <path d="M212 238 q28 22 56 0" stroke="#8c3b3b" stroke-width="5" fill="none" stroke-linecap="round"/>
  <ellipse cx="196" cy="222" rx="14" ry="8" fill="#e0806f" opacity="0.25"/><ellipse cx="284" cy="222" rx="14" ry="8" fill="#e0806f" opacity="0.25"/>
  ${beard ? `<path d="M168 205 C175 270 205 288 240 288 C275 288 305 270 312 205 C300 245 280 258 240 258 C200 258 180 245 168 205Z" fill="${hair}" opacity="0.9"/><path d="M212 238 q28 14 56 0" stroke="#8c3b3b" stroke-width="5" fill="none" stroke-linecap="round"/>` : ''}
</svg>`;
}

const coaches = {
  valeria: { skin: '#e8b896', shade: '#c98f6c', hair: '#3b2418', style: 'long', top: '#c2185b', topShade: '#880e4f', wall: ['#f6e9e4', '#e2c7bd'], light: '#fff8ee', accent: '#6c9a6a' },
  rodrigo: { skin: '#c68e68', shade: '#a26d4b', hair: '#1e1512', style: 'short', top: '#37474f', topShade: '#1c262b', wall: ['#e7ecef', '#c3ced6'], light: '#ffffff', accent: '#4f8a5b', beard: true },
  fernanda: { skin: '#f0c6a6', shade: '#d39a78', hair: '#8a4b2a', style: 'ponytail', top: '#00897b', topShade: '#00564d', wall: ['#eef3ec', '#cddbc8'], light: '#fffbe8', accent: '#7aa36f' },
  daniela: { skin: '#a8704f', shade: '#85523a', hair: '#21140f', style: 'curly', top: '#6a4cc2', topShade: '#432e8a', wall: ['#f3ebf6', '#d9c8e2'], light: '#fff6fb', accent: '#5f9a6d' },
  emilio: { skin: '#dca682', shade: '#b9805e', hair: '#4a3222', style: 'short', top: '#ef6c00', topShade: '#b34f00', wall: ['#f7eee3', '#e3cdb3'], light: '#fffaf0', accent: '#6b9568' },
};

/** A rolled mat, a block and a strap: the props of each class on a sunlit floor, 800×520. */
function classScene(kind) {
  const [w, h] = [800, 520];
  const palettes = {
    yoga: { wall: ['#f4efe6', '#e0d2bd'], light: '#fffaf0', accent: '#6f9f74', floor: '#c79a6b', prop: '#2e9b7f' },
    reformer: { wall: ['#efeefa', '#d3d0ea'], light: '#ffffff', accent: '#7f9f78', floor: '#bf956d', prop: '#7e57c2' },
    cycling: { wall: ['#2b2d42', '#1b1c2b'], light: '#ff8a4c', accent: '#3d405b', floor: '#3a3a48', prop: '#ef6c00' },
    barre: { wall: ['#fbeef1', '#ebcdd5'], light: '#ffffff', accent: '#86a97d', floor: '#c69c72', prop: '#c2185b' },
  };
  const p = palettes[kind];
  const floor = `<path d="M0 ${h * 0.62} L${w} ${h * 0.62} L${w} ${h} L0 ${h}Z" fill="${p.floor}"/>${Array.from({ length: 9 }, (_, i) => `<path d="M${i * 110 - 60} ${h} L${i * 90 + 20} ${h * 0.62}" stroke="#000" stroke-opacity="0.08" stroke-width="3"/>`).join('')}`;
  const shadow = (cx, cy, rx) => `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${rx * 0.12}" fill="#000" opacity="0.18" filter="url(#soft)"/>`;
  const props = {
    yoga: `${shadow(400, 440, 300)}
      <path d="M130 430 L640 430 L690 470 L90 470Z" fill="${p.prop}"/><path d="M90 470 L690 470 L690 478 L90 478Z" fill="#1f6f5b"/>
      <rect x="560" y="360" width="110" height="70" rx="8" fill="#f3d9a4"/><rect x="560" y="360" width="110" height="14" rx="6" fill="#fbe8c3"/>
      <circle cx="190" cy="392" r="38" fill="#c77d5a"/><circle cx="190" cy="392" r="24" fill="#a9603f"/><circle cx="190" cy="392" r="10" fill="#8d4b30"/><rect x="190" y="354" width="150" height="76" fill="#c77d5a"/>
      <path d="M370 428 C420 380 470 420 520 400" stroke="#6d4c41" stroke-width="8" fill="none" stroke-linecap="round"/>`,
    reformer: `${shadow(400, 455, 340)}
      <rect x="90" y="380" width="620" height="26" rx="12" fill="#8d6e63"/><rect x="110" y="406" width="16" height="50" fill="#5d4037"/><rect x="674" y="406" width="16" height="50" fill="#5d4037"/>
      <rect x="260" y="350" width="230" height="34" rx="10" fill="${p.prop}"/><rect x="270" y="340" width="60" height="16" rx="8" fill="#9575cd"/>
      <path d="M640 300 L640 380 M600 300 L680 300" stroke="#9e9e9e" stroke-width="10" stroke-linecap="round"/>
      <path d="M490 368 L620 368" stroke="#bdbdbd" stroke-width="4" stroke-dasharray="12 8"/>
      <rect x="96" y="330" width="30" height="52" rx="6" fill="#5d4037"/>`,
    cycling: `${[180, 400, 620].map((x) => `${shadow(x, 470, 120)}
      <circle cx="${x - 70}" cy="430" r="42" fill="none" stroke="#cfd8dc" stroke-width="10"/><circle cx="${x + 60}" cy="440" r="30" fill="#263238" stroke="#90a4ae" stroke-width="6"/>
      <path d="M${x - 70} 430 L${x} 330 L${x + 60} 440 M${x} 330 L${x - 10} 300 M${x - 35} 298 L${x + 10} 298 M${x - 70} 430 L${x + 50} 330 L${x + 80} 310" stroke="${p.prop}" stroke-width="14" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`).join('')}`,
    barre: `${shadow(400, 470, 330)}
      <rect x="60" y="110" width="680" height="300" rx="6" fill="#dfe7ec" opacity="0.75"/><rect x="60" y="110" width="680" height="300" rx="6" fill="none" stroke="#b0bec5" stroke-width="6"/>
      <path d="M70 260 L730 260" stroke="#a1887f" stroke-width="16" stroke-linecap="round"/><path d="M150 260 L150 300 M650 260 L650 300" stroke="#8d6e63" stroke-width="10"/>
      <circle cx="300" cy="440" r="26" fill="${p.prop}"/><circle cx="360" cy="448" r="20" fill="#f06292"/><rect x="460" y="420" width="90" height="40" rx="18" fill="#f8bbd0"/>`,
  };
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  ${studioBackdrop(w, h, p)}
  ${floor}
  <rect width="${w}" height="${h * 0.62}" fill="url(#glow)" opacity="0.5"/>
  ${props[kind]}
</svg>`;
}

/** The landing's hero: a studio at golden hour with mats in a row, 1600×900. */
function hero() {
  const [w, h] = [1600, 900];
  const mats = Array.from({ length: 5 }, (_, i) => {
    const x = 420 + i * 230;
    const colors = ['#c2185b', '#7e57c2', '#00897b', '#ef6c00', '#3949ab'];
    return `<path d="M${x} 620 L${x + 150} 620 L${x + 190} 860 L${x - 30} 860Z" fill="${colors[i]}" opacity="0.92"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffcf9f"/><stop offset="1" stop-color="#f78fa7"/></linearGradient>
    <linearGradient id="wall" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#5b2a47"/><stop offset="1" stop-color="#8e3b5f"/></linearGradient>
    <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#a8734f"/><stop offset="1" stop-color="#6d432c"/></linearGradient>
    <radialGradient id="sun" cx="0.75" cy="0.3" r="0.6"><stop offset="0" stop-color="#fff1d6" stop-opacity="0.9"/><stop offset="1" stop-color="#fff1d6" stop-opacity="0"/></radialGradient>
    ${blur('soft', 10)}${blur('softer', 22)}
  </defs>
  <rect width="${w}" height="${h}" fill="url(#wall)"/>
  <g filter="url(#soft)">
    ${[0, 1, 2].map((i) => `<rect x="${560 + i * 330}" y="90" width="280" height="460" rx="6" fill="url(#sky)"/><rect x="${695 + i * 330}" y="90" width="10" height="460" fill="#5b2a47"/><rect x="${560 + i * 330}" y="300" width="280" height="10" fill="#5b2a47"/>`).join('')}
    <ellipse cx="${w * 0.93}" cy="470" rx="110" ry="170" fill="#3f7a4f"/><ellipse cx="${w * 0.88}" cy="400" rx="70" ry="110" fill="#4f8f5d"/><rect x="${w * 0.9 - 50}" y="560" width="100" height="90" rx="10" fill="#c9a27c"/>
  </g>
  <path d="M0 600 L${w} 600 L${w} ${h} L0 ${h}Z" fill="url(#floor)"/>
  ${Array.from({ length: 14 }, (_, i) => `<path d="M${i * 150 - 300} ${h} L${i * 120 + 60} 600" stroke="#000" stroke-opacity="0.1" stroke-width="3"/>`).join('')}
  <g filter="url(#softer)" opacity="0.55">${[0, 1, 2].map((i) => `<path d="M${560 + i * 330} 600 L${840 + i * 330} 600 L${760 + i * 330} 900 L${380 + i * 330} 900Z" fill="#ffd7a8"/>`).join('')}</g>
  ${mats}
  <rect width="${w}" height="${h}" fill="url(#sun)"/>
</svg>`;
}

async function main() {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage();
  const written = [];
  const draw = async (svg, file, [width, height], quality, clip) => {
    await page.setViewportSize({ width, height });
    await page.setContent(`<!doctype html><style>html,body{margin:0}svg{display:block}</style>${svg}`);
    const out = path.join(demo, file);
    mkdirSync(path.dirname(out), { recursive: true });
    await page.screenshot({ path: out, type: 'jpeg', quality, clip });
    const size = statSync(out).size;
    if (size > MAX_BYTES) throw new Error(`${file}: ${size} bytes, over ${MAX_BYTES}`);
    written.push(`${file} ${(size / 1024).toFixed(1)} KB`);
  };
  for (const [name, look] of Object.entries(coaches)) await draw(portrait(look), `coaches/${name}.jpg`, [480, 600], 82);
  for (const kind of ['yoga', 'reformer', 'cycling', 'barre']) await draw(classScene(kind), `class-types/${kind}.jpg`, [800, 520], 80);
  await draw(hero(), 'hero.jpg', [1600, 900], 72);
  await browser.close();
  console.log(written.join('\n'));
}

await main();
