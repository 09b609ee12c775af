// Draws the tray and app icons as PNGs with nothing but zlib: `node assets/make-icons.mjs`.
// The glyph is a speech bubble with three dots ("someone is asking"); the attention variants add
// a dot for "questions waiting". Shapes are signed-distance functions, supersampled 4×4.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
/** RGBA pixels (Uint8Array, size*size*4) → PNG bytes. */
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

// Signed distances in unit coordinates (negative inside).
const roundRect = (x, y, x0, y0, x1, y1, r) => {
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const qx = Math.abs(x - cx) - ((x1 - x0) / 2 - r), qy = Math.abs(y - cy) - ((y1 - y0) / 2 - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
};
const circle = (x, y, cx, cy, r) => Math.hypot(x - cx, y - cy) - r;
const triangle = (x, y, [ax, ay], [bx, by], [cx, cy]) => {
  const s = (px, py, qx, qy) => (x - qx) * (py - qy) - (px - qx) * (y - qy);
  const d1 = s(ax, ay, bx, by), d2 = s(bx, by, cx, cy), d3 = s(cx, cy, ax, ay);
  const inside = !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
  return inside ? -1 : 1;
};
const bubble = (x, y) => Math.min(roundRect(x, y, 0.08, 0.12, 0.92, 0.72, 0.17), triangle(x, y, [0.22, 0.66], [0.46, 0.66], [0.18, 0.92]) < 0 ? -0.01 : 1);
const dots = (x, y) => Math.min(circle(x, y, 0.3, 0.42, 0.065), circle(x, y, 0.5, 0.42, 0.065), circle(x, y, 0.7, 0.42, 0.065));

/** Draws layers [{ coverage(x, y) → 0..1, color: [r,g,b,a] }] over transparency. */
function render(size, layers) {
  const out = new Uint8Array(size * size * 4);
  const ss = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const x = (px + (sx + 0.5) / ss) / size, y = (py + (sy + 0.5) / ss) / size;
          // Composite front-to-back per sample: the last matching layer wins.
          let c = [0, 0, 0, 0];
          for (const layer of layers) if (layer.inside(x, y)) c = layer.color;
          r += c[0] * c[3]; g += c[1] * c[3]; b += c[2] * c[3]; a += c[3];
        }
      }
      const i = (py * size + px) * 4;
      out[i + 3] = Math.round((a / (ss * ss)) * 255);
      if (a > 0) {
        out[i] = Math.round(r / a); out[i + 1] = Math.round(g / a); out[i + 2] = Math.round(b / a);
      }
    }
  }
  return out;
}

const CLEAR = [0, 0, 0, 0];
function trayLayers(ink, attention, dotColor) {
  const ring = (x, y) => bubble(x, y) < 0 && !(roundRect(x, y, 0.17, 0.21, 0.83, 0.63, 0.09) < 0);
  const layers = [
    { inside: ring, color: [...ink, 1] },
    { inside: (x, y) => dots(x, y) < 0, color: [...ink, 1] },
  ];
  if (attention) {
    layers.push({ inside: (x, y) => circle(x, y, 0.8, 0.22, 0.25) < 0, color: CLEAR });
    layers.push({ inside: (x, y) => circle(x, y, 0.8, 0.22, 0.18) < 0, color: [...dotColor, 1] });
  }
  return layers;
}

const files = [];
for (const [scale, suffix] of [[1, ""], [2, "@2x"]]) {
  const size = 22 * scale;
  for (const attention of [false, true]) {
    const a = attention ? "-attention" : "";
    files.push([`tray-light${a}${suffix}.png`, size, trayLayers([34, 34, 34], attention, [232, 72, 40])]);
    files.push([`tray-dark${a}${suffix}.png`, size, trayLayers([240, 240, 240], attention, [255, 112, 67])]);
    // macOS template images: black plus alpha; the system recolours them.
    files.push([`tray${attention ? "Attention" : ""}Template${suffix}.png`, size, trayLayers([0, 0, 0], attention, [0, 0, 0])]);
  }
}
const BLUE = [47, 98, 226];
files.push([
  "icon.png",
  512,
  [
    { inside: (x, y) => roundRect(x, y, 0.04, 0.04, 0.96, 0.96, 0.2) < 0, color: [...BLUE, 1] },
    { inside: (x, y) => bubble((x - 0.5) / 0.72 + 0.5, (y - 0.52) / 0.72 + 0.5) < 0, color: [255, 255, 255, 1] },
    { inside: (x, y) => dots((x - 0.5) / 0.72 + 0.5, (y - 0.52) / 0.72 + 0.5) < 0, color: [...BLUE, 1] },
  ],
]);

for (const [name, size, layers] of files) {
  const bytes = png(size, render(size, layers));
  writeFileSync(path.join(here, name), bytes);
  console.log(`${name} ${size}x${size} ${bytes.length} B`);
}
