// Every source map in an unpacked package points at sources the package ships: a debugger or a stack trace in a
// user's app lands on real lines. Usage: node maps.mjs <unpacked package directory>
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? '.');
const missing = [];
let maps = 0;
function walk(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      walk(path);
    } else if (entry.name.endsWith('.map')) {
      maps++;
      const map = JSON.parse(readFileSync(path, 'utf8'));
      map.sources.forEach((source, index) => {
        const inlined = typeof map.sourcesContent?.[index] === 'string';
        if (!inlined && !existsSync(resolve(dirname(path), map.sourceRoot ?? '', source))) {
          missing.push(`${path.slice(root.length + 1)} → ${source}`);
        }
      });
    }
  }
}
walk(root);
if (missing.length > 0) {
  console.error(
    `source maps point at files the package does not ship:\n  ${missing.slice(0, 20).join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`${maps} source maps, every source shipped`);
