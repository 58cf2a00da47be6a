#!/usr/bin/env node
/**
 * Builds the studio's previous admin panel (a React 16 app made with
 * create-react-app) from a checkout of its public source, changing only what
 * a studio changes to point it at this server: its API base URL and its
 * Firebase settings (here the Firebase Auth emulator). The panel's code is
 * never copied into this repository.
 *
 *   node scripts/legacy-panel/build.mjs <panel checkout> <out dir> <api base url> <auth emulator url>
 *
 * The checkout needs its dependencies installed, plus the two its index.html
 * takes from CDNs: `npm install --legacy-peer-deps bootstrap@5.0.1
 * @fortawesome/fontawesome-free@5.8.1` in it. Its react-scripts is not used
 * (webpack 4 does not run on Node 20). esbuild
 * bundles it as create-react-app would for production: JSX in .js files,
 * assets as files, NODE_ENV=production. Bootstrap and Font Awesome, which its
 * index.html takes from CDNs, are served from the checkout's node_modules.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const [source, out, apiBase, emulator] = process.argv.slice(2).map((a, i) => (i < 2 ? resolve(a) : a));
if (!source || !out || !apiBase || !emulator) {
  console.error('uso: build.mjs <checkout del panel> <carpeta de salida> <URL base de la API> <URL del emulador de Firebase Auth>');
  process.exit(2);
}

/** The two settings a studio changes, and nothing else. */
const settings = {
  name: 'studio-settings',
  setup(b) {
    b.onLoad({ filter: /src[\\/](utils[\\/]index|services[\\/]AuthService)\.js$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8');
      if (args.path.includes('utils')) {
        const before = text;
        text = text.replace(/export const BASE_URL =[\s\S]*?\+ "\/api";/, `export const BASE_URL = ${JSON.stringify(apiBase)};`);
        if (text === before) throw new Error('BASE_URL no encontrado en utils/index.js');
      } else {
        const before = text;
        text = text.replace(/const firebaseConfig = \{[\s\S]*?\};/, `const firebaseConfig = { apiKey: "demo-api-key", authDomain: "localhost", projectId: "demo-estudio" };`);
        text = text.replace(/firebase\.initializeApp\(firebaseConfig\);/, `firebase.initializeApp(firebaseConfig);\n  firebase.auth().useEmulator(${JSON.stringify(emulator)});`);
        if (text === before || !text.includes('useEmulator')) throw new Error('firebaseConfig no encontrado en AuthService.js');
      }
      return { contents: text, loader: 'jsx' };
    });
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'vendor'), { recursive: true });
await build({
  entryPoints: [join(source, 'src/index.js')],
  bundle: true,
  outdir: join(out, 'static'),
  entryNames: 'main',
  assetNames: '[name]-[hash]',
  minify: true,
  sourcemap: true,
  target: 'chrome100',
  // create-react-app 4 compiles JSX with React 17's automatic runtime: some files never import React.
  jsx: 'automatic',
  loader: { '.js': 'jsx', '.png': 'file', '.jpg': 'file', '.jpeg': 'file', '.svg': 'file', '.gif': 'file', '.woff': 'file', '.woff2': 'file', '.ttf': 'file' },
  define: { 'process.env.NODE_ENV': '"production"', 'process.env.PUBLIC_URL': '""' },
  plugins: [settings],
  // create-react-app leaves root-relative url()s in CSS as they are.
  external: ['/src/*'],
  logLevel: 'warning',
});

cpSync(join(source, 'public'), out, { recursive: true, filter: (p) => !p.endsWith('index.html') });
cpSync(join(source, 'node_modules/bootstrap/dist'), join(out, 'vendor/bootstrap'), { recursive: true });
cpSync(join(source, 'node_modules/@fortawesome/fontawesome-free'), join(out, 'vendor/fontawesome'), { recursive: true });
const html = readFileSync(join(source, 'public/index.html'), 'utf8')
  .replaceAll('%PUBLIC_URL%', '')
  .replace(/https:\/\/cdn\.jsdelivr\.net\/npm\/bootstrap@[^/]+\/dist\//g, '/vendor/bootstrap/')
  .replace(/https:\/\/use\.fontawesome\.com\/releases\/v[^/]+\//g, '/vendor/fontawesome/')
  .replace(/https:\/\/cdn\.jsdelivr\.net\/npm\/@popperjs\/core@[^/]+\/dist\/umd\/popper\.min\.js/, '/vendor/bootstrap/js/bootstrap.bundle.min.js')
  // Subresource integrity pins the CDN's bytes; the same files served here differ in line endings.
  .replace(/\s+integrity="[^"]*"/g, '')
  // Conekta's card tokenizer (an old payment provider) is not reachable offline and no admin screen needs it to render.
  .replace(/<script[^>]*conekta[^>]*><\/script>/, '')
  .replace('</head>', '    <link rel="stylesheet" href="/static/main.css" />\n  </head>')
  .replace('</body>', '    <script src="/static/main.js"></script>\n  </body>');
writeFileSync(join(out, 'index.html'), html);
console.log(`panel construido en ${out}`);
