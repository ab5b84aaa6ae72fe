/** readLines on inputs that end well and badly: every readable line, then the damage with its reason. */
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { readLines, type InputLine } from '../../indexer/read.js';

const dir = mkdtempSync(path.join(tmpdir(), 'read-'));
const text = `${Array.from({ length: 300 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(i % 40) })).join('\n')}\n`;

async function read(bytes: Buffer): Promise<InputLine[]> {
  const file = path.join(dir, `f${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, bytes);
  const lines: InputLine[] = [];
  for await (const line of readLines([file])) lines.push(line);
  return lines;
}

describe('readLines', () => {
  it('reads concatenated gzip members and ignores zero padding after them, as gzip -d does', async () => {
    const half = text.indexOf('\n', text.length / 2) + 1;
    const lines = await read(Buffer.concat([gzipSync(text.slice(0, half)), gzipSync(text.slice(half)), Buffer.alloc(512)]));
    expect(`${lines.map((l) => l.text).join('\n')}\n`).to.equal(text);
    expect(lines.every((l) => l.damage === undefined && !l.unterminated)).to.equal(true);
  });

  it('numbers lines as the file does (blank lines count), drops CR of CRLF and a leading byte order mark', async () => {
    const lines = await read(Buffer.from('\uFEFF{"a":1}\r\n\n{"b":2}\r\n'));
    expect(lines).to.deep.equal([
      { file: lines[0].file, line: 1, text: '{"a":1}' },
      { file: lines[0].file, line: 3, text: '{"b":2}' },
    ]);
  });

  it('a gzip stream cut anywhere: the lines before the cut, the cut line marked, then the damage', async () => {
    const whole = gzipSync(text);
    for (const keep of [5, 20, Math.floor(whole.length / 2), whole.length - 4]) {
      const lines = await read(whole.subarray(0, keep));
      const damage = lines.at(-1)!;
      expect(damage.damage, `${keep} bytes`).to.match(/truncated/);
      const records = lines.filter((l) => l.damage === undefined && !l.unterminated);
      expect(text.startsWith(records.map((l) => `${l.text}\n`).join('')), `${keep} bytes`).to.equal(true);
    }
  });

  it('bytes after the gzip stream: every line, then the damage; a corrupt checksum is damage too', async () => {
    const whole = gzipSync(text);
    const garbage = await read(Buffer.concat([whole, Buffer.from('\x1f garbage')]));
    expect(garbage.filter((l) => !l.damage)).to.have.length(300);
    expect(garbage.at(-1)!.damage).to.equal('9 byte(s) after the end of the gzip stream');
    const corrupt = Buffer.from(whole);
    corrupt[corrupt.length - 6] ^= 0xff;
    const checked = await read(corrupt);
    expect(checked.filter((l) => !l.damage)).to.have.length(300);
    expect(checked.at(-1)!.damage).to.match(/checksum or length does not match/);
  });
});
