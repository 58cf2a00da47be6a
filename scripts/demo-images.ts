// Renders the demo studio's artwork (hero, about, mission, class types,
// packages, programs, social card) into portal/public/demo as JPEG, with
// Debian's Chromium: brand gradients and a Tabler icon, no stock photos.
// The seed and the app config already point at these paths.
//   npx tsx scripts/demo-images.ts
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { videos } from '../db/src/seed/content.ts';
import {
  IconBarbell, IconBike, IconCertificate, IconDeviceTv, IconFlame, IconGift, IconHeart, IconInfinity,
  IconStretching, IconSun, IconTicket, IconUsers, IconYoga, type IconProps,
} from '@tabler/icons-react';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'portal', 'public', 'demo');

interface Art { file: string; icon: ComponentType<IconProps>; from: string; to: string; width?: number; height?: number; label?: string }

const arts: Art[] = [
  { file: 'hero.jpg', icon: IconYoga, from: '#3b0d2c', to: '#d6336c', width: 1600, height: 900 },
  { file: 'about.jpg', icon: IconUsers, from: '#862e9c', to: '#f06595' },
  { file: 'mission.jpg', icon: IconHeart, from: '#c2255c', to: '#ff8787' },
  { file: 'class-types/yoga.jpg', icon: IconYoga, from: '#087f5b', to: '#63e6be' },
  { file: 'class-types/reformer.jpg', icon: IconStretching, from: '#5f3dc4', to: '#b197fc' },
  { file: 'class-types/cycling.jpg', icon: IconBike, from: '#d9480f', to: '#ffa94d' },
  { file: 'class-types/barre.jpg', icon: IconBarbell, from: '#a61e4d', to: '#faa2c1' },
  { file: 'packages/prueba.jpg', icon: IconGift, from: '#2b8a3e', to: '#8ce99a' },
  { file: 'packages/1-clase.jpg', icon: IconTicket, from: '#1864ab', to: '#74c0fc' },
  { file: 'packages/5-clases.jpg', icon: IconTicket, from: '#5f3dc4', to: '#b197fc' },
  { file: 'packages/10-clases.jpg', icon: IconTicket, from: '#a61e4d', to: '#f783ac' },
  { file: 'packages/ilimitado.jpg', icon: IconInfinity, from: '#3b0d2c', to: '#d6336c' },
  { file: 'packages/online.jpg', icon: IconDeviceTv, from: '#0b7285', to: '#66d9e8' },
  { file: 'packages/sunset-yoga.jpg', icon: IconSun, from: '#e8590c', to: '#ffd43b' },
  { file: 'packages/inscripcion.jpg', icon: IconCertificate, from: '#495057', to: '#adb5bd' },
  { file: 'programs/reto-yoga.jpg', icon: IconYoga, from: '#087f5b', to: '#96f2d7' },
  { file: 'programs/pilates-casa.jpg', icon: IconStretching, from: '#5f3dc4', to: '#d0bfff' },
  { file: 'programs/barre-express.jpg', icon: IconFlame, from: '#c92a2a', to: '#ffa8a8' },
  { file: 'social.jpg', icon: IconYoga, from: '#3b0d2c', to: '#d6336c', width: 1200, height: 630, label: 'Estudio Demo' },
];

// Video thumbnails (16:9) in the colours of their class type, numbered as the seed numbers them.
const byClassType = [
  { icon: IconYoga, from: '#087f5b', to: '#63e6be' },
  { icon: IconStretching, from: '#5f3dc4', to: '#b197fc' },
  { icon: IconBike, from: '#d9480f', to: '#ffa94d' },
  { icon: IconBarbell, from: '#a61e4d', to: '#faa2c1' },
];
videos.forEach((video, i) => {
  const look = byClassType[video.classType ?? -1] ?? { icon: IconHeart, from: '#0b7285', to: '#66d9e8' };
  arts.push({ file: `videos/${String(i + 1).padStart(2, '0')}.jpg`, ...look, width: 640, height: 360 });
});

function page({ icon, from, to, width = 1200, height = 800, label }: Art): string {
  const size = Math.round(Math.min(width, height) * 0.55);
  const svg = renderToStaticMarkup(createElement(icon, { size, stroke: 1.1, color: 'rgba(255,255,255,0.92)' }));
  return `<!doctype html><html><head><style>
    html,body{margin:0;width:${width}px;height:${height}px;overflow:hidden}
    .art{position:relative;width:100%;height:100%;background:linear-gradient(135deg,${from},${to});font-family:sans-serif}
    .glow{position:absolute;border-radius:50%;background:radial-gradient(circle,rgba(255,255,255,.22),rgba(255,255,255,0) 70%)}
    .icon{position:absolute;right:${Math.round(width * 0.1)}px;top:50%;transform:translateY(-50%) rotate(-6deg);filter:drop-shadow(0 12px 30px rgba(0,0,0,.25))}
    .label{position:absolute;left:${Math.round(width * 0.08)}px;bottom:${Math.round(height * 0.12)}px;color:#fff;font-size:${Math.round(height * 0.11)}px;font-weight:800;letter-spacing:.02em}
  </style></head><body><div class="art">
    <div class="glow" style="width:${width * 0.7}px;height:${width * 0.7}px;left:-${width * 0.2}px;top:-${width * 0.25}px"></div>
    <div class="glow" style="width:${width * 0.5}px;height:${width * 0.5}px;right:-${width * 0.1}px;bottom:-${width * 0.2}px"></div>
    <div class="icon">${svg}</div>${label ? `<div class="label">${label}</div>` : ''}
  </div></body></html>`;
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  for (const art of arts) {
    const tab = await browser.newPage({ viewport: { width: art.width ?? 1200, height: art.height ?? 800 } });
    await tab.setContent(page(art));
    const path = join(out, art.file);
    mkdirSync(dirname(path), { recursive: true });
    await tab.screenshot({ path, type: 'jpeg', quality: 82 });
    await tab.close();
    console.log(path);
  }
} finally {
  await browser.close();
}
