import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect, promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DATA_PURPOSES,
  DataCryptoError,
  DEV_MASTER_KEY_FILE,
  deriveLookupKey,
  isCiphertext,
  Keyring,
  keyIdOf,
  loadKeyring,
  lookupHashWith,
  masterKeySettings,
  newKeyId,
  normaliseRequisite,
  parseMasterKey,
  unwrapDataKey,
  wrapDataKey,
} from './data-crypto';

const INVOICE = DATA_PURPOSES.invoiceCredential;
const ACCOUNT = DATA_PURPOSES.accountCredential;
const master = randomBytes(32);
const tmpDirs: string[] = [];
const tmpDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-keys-'));
  tmpDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A keyring with one active data key `k1`. */
function ring(m: Buffer = master): Keyring {
  const k = new Keyring(m);
  k.addKey('k1', randomBytes(32), { active: true });
  return k;
}

/** The error a call throws (the test fails when it does not throw). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

/** The same base64url string with one character of its data part changed. */
function tamper(ciphertext: string, at: number): string {
  const i = ciphertext.length - 1 - at;
  return ciphertext.slice(0, i) + (ciphertext[i] === 'A' ? 'B' : 'A') + ciphertext.slice(i + 1);
}

describe('values', () => {
  it('round trip, each value carrying its key id in v1:<keyId>:<iv>:<data>', () => {
    const k = ring();
    const c = k.encrypt(INVOICE, '9860123456789015');
    expect(c).toMatch(/^v1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22,}$/);
    expect(c).not.toContain('9860');
    expect(keyIdOf(c)).toBe('k1');
    expect(k.keyIdOf(c)).toBe('k1');
    expect(k.decrypt(INVOICE, c)).toBe('9860123456789015');
    expect(k.decrypt(INVOICE, k.encrypt(INVOICE, ''))).toBe('');
  });

  it('round trip of any text (property)', () => {
    const k = ring();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.constantFrom(INVOICE, ACCOUNT), (text, purpose) => {
        const c = k.encrypt(purpose, text);
        expect(isCiphertext(c)).toBe(true);
        expect(k.decrypt(purpose, c)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('two encryptions of one value differ (random IV); their lookup hashes are equal', () => {
    const k = ring();
    const a = k.encrypt(ACCOUNT, '+998901234567');
    const b = k.encrypt(ACCOUNT, '+998901234567');
    expect(a).not.toBe(b);
    expect(a.split(':')[2]).not.toBe(b.split(':')[2]);
    expect(k.lookupHash('+998901234567')).toBe(k.lookupHash('+998901234567'));
  });

  it('tells encrypted values from requisites in plain text', () => {
    const k = ring();
    expect(isCiphertext(k.encrypt(INVOICE, 'x'))).toBe(true);
    expect(k.isCiphertext(k.encrypt(INVOICE, 'x'))).toBe(true);
    for (const plain of ['9860123456789015', '+998901234567', 'v1:k1:short:short', '', 'v1:k1'])
      expect(isCiphertext(plain), plain).toBe(false);
    expect(() => keyIdOf('9860123456789015')).toThrow(/Not an encrypted value/);
  });

  it('a tampered value fails authentication', () => {
    const k = ring();
    const c = k.encrypt(INVOICE, '9860123456789015');
    const [v, id, iv, body] = c.split(':') as [string, string, string, string];
    const altered = [
      tamper(c, 1), // the tag
      tamper(c, 30), // the ciphertext
      [v, id, tamper(iv, 3), body].join(':'),
      [v, id, iv, body.slice(0, -3)].join(':'), // 30 of the 32 bytes
    ];
    for (const bad of altered) {
      const e = thrown(() => k.decrypt(INVOICE, bad));
      expect(e).toBeInstanceOf(DataCryptoError);
      expect((e as DataCryptoError).code).toBe('AUTH_FAILED');
      expect(e.message).toMatch(/invoice\.credential value failed authentication/);
    }
  });

  it('a value does not decrypt for another purpose (column)', () => {
    const k = ring();
    const e = thrown(() => k.decrypt(ACCOUNT, k.encrypt(INVOICE, '9860123456789015')));
    expect((e as DataCryptoError).code).toBe('AUTH_FAILED');
    expect(() => k.decrypt('other.column' as never, k.encrypt(INVOICE, 'x'))).toThrow(/Unknown encryption purpose/);
    expect(() => k.encrypt('other.column' as never, 'x')).toThrow(/Unknown encryption purpose/);
  });

  it('a value relabelled with another known key id fails; an unknown key id is named', () => {
    const k = ring();
    k.addKey('k2', randomBytes(32));
    const c = k.encrypt(INVOICE, '9860123456789015');
    expect((thrown(() => k.decrypt(INVOICE, c.replace(/^v1:k1:/, 'v1:k2:'))) as DataCryptoError).code).toBe(
      'AUTH_FAILED',
    );
    const unknown = thrown(() => k.decrypt(INVOICE, c.replace(/^v1:k1:/, 'v1:gone:')));
    expect((unknown as DataCryptoError).code).toBe('UNKNOWN_KEY');
    expect(unknown.message).toContain('data key "gone", which is not in the keyring');
  });

  it('malformed values and a ring without an active key throw clear errors', () => {
    const k = ring();
    expect((thrown(() => k.decrypt(INVOICE, '9860123456789015')) as DataCryptoError).code).toBe('MALFORMED');
    // 32 bytes in 43 base64url characters leave 2 bits unused: setting them is another spelling, refused
    const c = k.encrypt(INVOICE, '9860123456789015');
    const body = c.split(':')[3]!;
    expect(body).toHaveLength(43);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelt = c.slice(0, -1) + alphabet[alphabet.indexOf(c.at(-1)!) ^ 1];
    expect((thrown(() => k.decrypt(INVOICE, respelt)) as DataCryptoError).code).toBe('MALFORMED');
    const empty = new Keyring(master);
    expect((thrown(() => empty.encrypt(INVOICE, 'x')) as DataCryptoError).code).toBe('NO_ACTIVE_KEY');
  });
});

describe('data keys', () => {
  it('wrap/unwrap round trip; the wrapped key is bound to its id and master key', () => {
    const raw = randomBytes(32);
    const wrapped = wrapDataKey(master, 'k1', raw);
    expect(wrapped).toMatch(/^w1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22,}$/);
    expect(wrapped).not.toContain(raw.toString('base64url'));
    expect(unwrapDataKey(master, 'k1', wrapped).equals(raw)).toBe(true);
    expect(wrapDataKey(master, 'k1', raw)).not.toBe(wrapped);

    const otherId = thrown(() => unwrapDataKey(master, 'k2', wrapped));
    expect((otherId as DataCryptoError).code).toBe('AUTH_FAILED');
    const otherMaster = thrown(() => unwrapDataKey(randomBytes(32), 'k1', wrapped));
    expect(otherMaster.message).toMatch(/master key is not the one it was wrapped with.*DATA_ENCRYPTION_KEY/);
    expect((thrown(() => unwrapDataKey(master, 'k1', 'plain')) as DataCryptoError).code).toBe('MALFORMED');
    expect(() => wrapDataKey(master, 'k1', randomBytes(16))).toThrow(/32 bytes/);
    expect(() => wrapDataKey(master, 'bad:id', raw)).toThrow(/invalid/);
  });

  it('newDataKey gives a random id and key with its wrapped form; the ring unwraps it', () => {
    const k = new Keyring(master);
    const a = k.newDataKey();
    const b = k.newDataKey();
    expect(a.id).toMatch(/^[a-z2-9]{8}$/);
    expect(newKeyId()).toMatch(/^[a-z2-9]{8}$/);
    expect(a.id).not.toBe(b.id);
    expect(a.key).toHaveLength(32);
    expect(k.unwrap(a.id, a.wrapped).equals(a.key)).toBe(true);
    expect(unwrapDataKey(master, a.id, a.wrapped).equals(a.key)).toBe(true);
    expect(k.hasKey(a.id)).toBe(false);
    k.addKey(a.id, a.key, { active: true });
    expect(k.activeKeyId).toBe(a.id);
  });

  it('addKey: the same id again with the same bytes is fine, with other bytes it throws', () => {
    const k = new Keyring(master);
    const raw = randomBytes(32);
    k.addKey('k1', raw);
    expect(k.activeKeyId).toBeNull();
    k.addKey('k1', Buffer.from(raw), { active: true });
    expect(k.activeKeyId).toBe('k1');
    expect(() => k.addKey('k1', randomBytes(32))).toThrow(/already in the keyring/);
    expect(k.keyIds()).toEqual(['k1']);
  });

  it('loadWrappedKeys: every row decrypts, the newest row not retired is active', () => {
    const writer = new Keyring(master);
    const keys = ['k1', 'k2', 'k3'].map((id) => ({ id, raw: randomBytes(32) }));
    for (const { id, raw } of keys) writer.addKey(id, raw, { active: true });
    const old = writer.encrypt(INVOICE, '9860123456789015'); // under k3
    const rows = [
      { id: 'k1', wrapped: writer.wrap('k1', keys[0]!.raw), createdAt: new Date('2025-01-01'), retiredAt: null },
      { id: 'k3', wrapped: writer.wrap('k3', keys[2]!.raw), createdAt: '2025-03-01T00:00:00Z', retiredAt: new Date() },
      { id: 'k2', wrapped: writer.wrap('k2', keys[1]!.raw), createdAt: new Date('2025-02-01'), retiredAt: null },
    ];
    const reader = new Keyring(master);
    reader.loadWrappedKeys(rows);
    expect(reader.keyIds().sort()).toEqual(['k1', 'k2', 'k3']);
    expect(reader.activeKeyId).toBe('k2');
    expect(reader.decrypt(INVOICE, old)).toBe('9860123456789015');
    expect(keyIdOf(reader.encrypt(INVOICE, 'x'))).toBe('k2');

    expect(() => new Keyring(randomBytes(32)).loadWrappedKeys(rows)).toThrow(/cannot be unwrapped/);
  });

  it('rotation: reencrypt moves a value to the active key; lookup hashes do not change', () => {
    const k = ring();
    const before = k.encrypt(ACCOUNT, '+79161234567');
    const hash = k.lookupHash('+79161234567');
    const next = k.newDataKey();
    k.addKey(next.id, next.key, { active: true });
    expect(k.needsReencryption(before)).toBe(true);
    const after = k.reencrypt(ACCOUNT, before);
    expect(keyIdOf(after)).toBe(next.id);
    expect(k.decrypt(ACCOUNT, after)).toBe('+79161234567');
    expect(k.needsReencryption(after)).toBe(false);
    expect(k.reencrypt(ACCOUNT, after)).toBe(after);
    expect(() => k.reencrypt(ACCOUNT, tamper(after, 1))).toThrow(/failed authentication/);
    expect(k.lookupHash('+79161234567')).toBe(hash);
  });

  it('logging a keyring shows no key material', () => {
    const m = randomBytes(32);
    const raw = randomBytes(32);
    const k = new Keyring(m);
    k.addKey('k1', raw, { active: true });
    const shown = `${inspect(k, { depth: 10, showHidden: true })} ${JSON.stringify(k)}`;
    for (const secret of [m, raw])
      for (const enc of ['hex', 'base64'] as const) expect(shown).not.toContain(secret.toString(enc).slice(0, 12));
    expect(k.masterFingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(shown).toContain(k.masterFingerprint);
  });
});

describe('lookup hashes', () => {
  it('normalise card and phone numbers before hashing', () => {
    expect(normaliseRequisite('+7 (916) 123-45-67')).toBe('79161234567');
    expect(normaliseRequisite(' 4111 1111-1111 1111 ')).toBe('4111111111111111');
    expect(normaliseRequisite('９８６０')).toBe('9860');
    expect(normaliseRequisite('GB82 WEST 1234')).toBe('GB82WEST1234');
    const k = ring();
    expect(k.lookupHash('+7 (916) 123-45-67')).toBe(k.lookupHash('79161234567'));
    expect(k.lookupHash('4111 1111 1111 1111')).toBe(k.lookupHash('4111111111111111'));
    expect(k.lookupHash('4111111111111111')).not.toBe(k.lookupHash('4111111111111112'));
    expect(k.lookupHash('4111111111111111')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('depend on the master key only: equal across data keys and keyrings of one master, not of another', () => {
    const a = ring(master);
    const b = ring(master);
    expect(a.lookupHash('9860123456789015')).toBe(b.lookupHash('9860123456789015'));
    expect(lookupHashWith(deriveLookupKey(master), '9860123456789015')).toBe(a.lookupHash('9860123456789015'));
    expect(ring(randomBytes(32)).lookupHash('9860123456789015')).not.toBe(a.lookupHash('9860123456789015'));
    // not a plain hash of the value, nor keyed with the master key itself
    expect(lookupHashWith(master, '9860123456789015')).not.toBe(a.lookupHash('9860123456789015'));
  });
});

describe('master key', () => {
  it('reads 32 bytes as hex, base64 or base64url, ignoring surrounding whitespace', () => {
    const key = randomBytes(32);
    expect(parseMasterKey(key.toString('hex')).equals(key)).toBe(true);
    expect(parseMasterKey(key.toString('hex').toUpperCase()).equals(key)).toBe(true);
    expect(parseMasterKey(`${key.toString('base64')}\n`).equals(key)).toBe(true);
    expect(parseMasterKey(key.toString('base64url')).equals(key)).toBe(true);
  });

  it('rejects a key of the wrong length with a message naming the variable, never the value', () => {
    const short = randomBytes(16).toString('base64');
    const e = thrown(() => parseMasterKey(short));
    expect(e.message).toMatch(/^DATA_ENCRYPTION_KEY must be a master key of 32 bytes as 64 hex digits or 44 base64/);
    expect(e.message).toContain('24 characters long, 16 bytes as base64');
    expect(e.message).not.toContain(short);
    expect(() => parseMasterKey(randomBytes(16).toString('hex'))).toThrow(/32 characters long, 16 bytes as hex/);
    expect(() => parseMasterKey('not a key!')).toThrow(/neither hex nor base64/);
    expect(() => parseMasterKey('  ')).toThrow(/DATA_ENCRYPTION_KEY is empty/);
    expect(() => loadKeyring({ env: 'production', dataDir: tmpDir(), masterKey: short })).toThrow(
      /DATA_ENCRYPTION_KEY must be/,
    );
  });

  it('takes DATA_ENCRYPTION_KEY or DATA_ENCRYPTION_KEY_FILE, never both', () => {
    const key = randomBytes(32);
    const dir = tmpDir();
    const fromEnv = loadKeyring({ env: 'production', dataDir: dir, masterKey: key.toString('base64') });
    expect(fromEnv.source).toEqual({ kind: 'env' });
    expect(fromEnv.keyring.masterFingerprint).toBe(new Keyring(key).masterFingerprint);

    const file = path.join(dir, 'secret.key');
    fs.writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600 });
    const fromFile = loadKeyring({ env: 'production', dataDir: dir, keyFile: file });
    expect(fromFile.source).toEqual({ kind: 'file', path: file });
    expect(fromFile.keyring.masterFingerprint).toBe(fromEnv.keyring.masterFingerprint);

    expect(() => loadKeyring({ env: 'production', dataDir: dir, keyFile: path.join(dir, 'missing.key') })).toThrow(
      /DATA_ENCRYPTION_KEY_FILE names .*missing\.key, which cannot be read/,
    );
    fs.writeFileSync(file, 'short\n');
    expect(() => loadKeyring({ env: 'production', dataDir: dir, keyFile: file })).toThrow(
      /The key file .*secret\.key \(DATA_ENCRYPTION_KEY_FILE\) must be a master key/,
    );
    expect(() =>
      loadKeyring({ env: 'development', dataDir: dir, masterKey: key.toString('hex'), keyFile: file }),
    ).toThrow(/either DATA_ENCRYPTION_KEY or DATA_ENCRYPTION_KEY_FILE, not both/);
    expect(masterKeySettings({ DATA_ENCRYPTION_KEY: '', DATA_ENCRYPTION_KEY_FILE: '/k' })).toEqual({
      masterKey: undefined,
      keyFile: '/k',
    });
  });

  it('production without a key refuses to start, even when a development key file exists', () => {
    const dir = tmpDir();
    const e = thrown(() => loadKeyring({ env: 'production', dataDir: dir }));
    expect(e.message).toMatch(
      /needs a master key in production: set DATA_ENCRYPTION_KEY .* or DATA_ENCRYPTION_KEY_FILE/,
    );
    loadKeyring({ env: 'development', dataDir: dir });
    expect(() => loadKeyring({ env: 'production', dataDir: dir })).toThrow(/needs a master key in production/);
  });

  it('development generates <dataDir>/keys/master.key once (mode 0600) and reuses it', () => {
    const dir = tmpDir();
    const first = loadKeyring({ env: 'development', dataDir: dir });
    const file = path.join(dir, DEV_MASTER_KEY_FILE);
    expect(file).toBe(path.join(dir, 'keys', 'master.key'));
    expect(first.source).toEqual({ kind: 'generated', path: file });
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(parseMasterKey(fs.readFileSync(file, 'utf8'))).toHaveLength(32);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['master.key']); // no temporary file left

    const second = loadKeyring({ env: 'test', dataDir: dir });
    expect(second.source).toEqual({ kind: 'dev-file', path: file });
    expect(second.keyring.masterFingerprint).toBe(first.keyring.masterFingerprint);

    // data written in one run decrypts in the next
    const raw = randomBytes(32);
    const row = { id: 'k1', wrapped: first.keyring.wrap('k1', raw), createdAt: new Date(), retiredAt: null };
    first.keyring.addKey('k1', raw, { active: true });
    const c = first.keyring.encrypt(INVOICE, '9860123456789015');
    second.keyring.loadWrappedKeys([row]);
    expect(second.keyring.decrypt(INVOICE, c)).toBe('9860123456789015');
  });

  it('processes starting together all end up with the one generated key', async () => {
    const dir = tmpDir();
    const tsx = ['../../../../node_modules/.bin/tsx', '../../node_modules/.bin/tsx']
      .map((p) => path.resolve(import.meta.dirname, p))
      .find((p) => fs.existsSync(p))!;
    const script = `import { loadKeyring } from ${JSON.stringify(path.resolve(import.meta.dirname, 'data-crypto.ts'))};
      const { keyring, source } = loadKeyring({ env: 'development', dataDir: ${JSON.stringify(dir)} });
      console.log(keyring.masterFingerprint + ' ' + source.kind);`;
    const runs = await Promise.all(
      [1, 2, 3].map(() => promisify(execFile)(tsx, ['--eval', script], { cwd: dir }).then((r) => r.stdout.trim())),
    );
    const prints = new Set(runs.map((r) => r.split(' ')[0]));
    expect(prints.size).toBe(1);
    expect(runs.filter((r) => r.endsWith(' generated')).length).toBeLessThanOrEqual(1);
    expect(loadKeyring({ env: 'development', dataDir: dir }).keyring.masterFingerprint).toBe([...prints][0]);
  });
});
