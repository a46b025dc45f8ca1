import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Application-layer encryption of requisite values (card and phone numbers), docs/data-encryption.md.
 *
 * Key hierarchy:
 * - master key (32 bytes): from DATA_ENCRYPTION_KEY, a key file (DATA_ENCRYPTION_KEY_FILE) or, outside production, a
 *   file generated once in the data folder. Never stored in the database. Two keys are derived from it with HKDF:
 *   the key-wrapping key and the lookup key.
 * - data keys (32 bytes each, with a short id): stored in the database wrapped (AES-256-GCM) under the key-wrapping
 *   key, the key id bound in as additional data so a wrapped key cannot be moved to another id.
 * - values: AES-256-GCM under a data key, written as `v1:<keyId>:<iv>:<ciphertext+tag>` (base64url), the purpose
 *   (the column, e.g. 'invoice.credential') and the key id bound in as additional data, so a value copied into
 *   another column, or relabelled with another key id, fails to decrypt.
 * - lookup hashes: HMAC-SHA-256 of the normalised value under the lookup key; they depend on the master key only,
 *   so they stay the same when data keys rotate, and equal values give equal hashes in every column.
 */

/** Where an encrypted value belongs: part of the additional data, so a value only decrypts for its own column. */
export const DATA_PURPOSES = {
  invoiceCredential: 'invoice.credential',
  accountCredential: 'account.credential',
} as const;
export type DataPurpose = (typeof DATA_PURPOSES)[keyof typeof DATA_PURPOSES];

const MASTER_KEY_ENV = 'DATA_ENCRYPTION_KEY';
const MASTER_KEY_FILE_ENV = 'DATA_ENCRYPTION_KEY_FILE';
/** The development/test master key file, relative to the data folder. */
export const DEV_MASTER_KEY_FILE = path.join('keys', 'master.key');

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const CIPHERTEXT_VERSION = 'v1';
const WRAPPED_VERSION = 'w1';
const HKDF_SALT = Buffer.from('paydesk data encryption');
const WRAP_INFO = 'paydesk key wrap v1';
const LOOKUP_INFO = 'paydesk lookup v1';
const FINGERPRINT_INFO = 'paydesk key fingerprint v1';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const B64URL = '[A-Za-z0-9_-]';
/** 12-byte IV: 16 base64url characters; ciphertext + 16-byte tag: at least 22. */
const CIPHERTEXT = new RegExp(`^${CIPHERTEXT_VERSION}:([A-Za-z0-9_-]{1,32}):(${B64URL}{16}):(${B64URL}{22,})$`);
const WRAPPED = new RegExp(`^${WRAPPED_VERSION}:(${B64URL}{16}):(${B64URL}{22,})$`);
const KEY_ID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** Every failure to decrypt or unwrap, with a code for callers that react to one (e.g. reload keys on UNKNOWN_KEY). */
export class DataCryptoError extends Error {
  constructor(
    readonly code: 'MALFORMED' | 'UNKNOWN_KEY' | 'AUTH_FAILED' | 'NO_ACTIVE_KEY' | 'BAD_KEY',
    message: string,
  ) {
    super(message);
    this.name = 'DataCryptoError';
  }
}

/* ---- Keys ---- */

function checkKey(key: Buffer, what: string): void {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES)
    throw new DataCryptoError('BAD_KEY', `${what} must be ${KEY_BYTES} bytes`);
}

function checkKeyId(id: string): void {
  if (!KEY_ID.test(id))
    throw new DataCryptoError('BAD_KEY', `Data key id "${id}" is invalid: 1–32 letters, digits, '_' or '-'`);
}

const derive = (master: Buffer, info: string) => Buffer.from(hkdfSync('sha256', master, HKDF_SALT, info, KEY_BYTES));

/**
 * A master key from its text form: 64 hex digits, or base64 / base64url of 32 bytes (what `openssl rand -base64 32`
 * prints). Surrounding whitespace (a key file's newline) is ignored. `source` names where it came from in the error;
 * the error never repeats the value.
 */
export function parseMasterKey(text: string, source: string = MASTER_KEY_ENV): Buffer {
  const s = text.trim();
  const how = '32 bytes as 64 hex digits or 44 base64 characters (openssl rand -base64 32)';
  if (s === '') throw new Error(`${source} is empty: give a master key of ${how}`);
  const readings: { key: Buffer; as: string }[] = [];
  if (/^[0-9a-fA-F]+$/.test(s) && s.length % 2 === 0) readings.push({ key: Buffer.from(s, 'hex'), as: 'hex' });
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) {
    const std = s.replace(/-/g, '+').replace(/_/g, '/');
    const decoded = Buffer.from(std, 'base64');
    // only canonical base64 counts: encoding the bytes again gives the same characters
    if (decoded.toString('base64').replace(/=+$/, '') === std.replace(/=+$/, ''))
      readings.push({ key: decoded, as: 'base64' });
  }
  const hit = readings.find((r) => r.key.length === KEY_BYTES);
  if (hit) return hit.key;
  const got = readings.length
    ? readings.map((r) => `${r.key.length} bytes as ${r.as}`).join(' or ')
    : 'neither hex nor base64';
  throw new Error(`${source} must be a master key of ${how}; the value given is ${s.length} characters long, ${got}`);
}

/** A short random data key id: 8 characters of [a-z2-9] without look-alikes (about 40 bits). */
export function newKeyId(): string {
  const bytes = randomBytes(8);
  let id = '';
  for (const b of bytes) id += KEY_ID_ALPHABET[b & 31];
  return id;
}

const wrapAad = (keyId: string) => Buffer.from(`paydesk/data-key/${WRAPPED_VERSION}/${keyId}`);

/** A data key wrapped for the data_keys table: `w1:<iv>:<ciphertext+tag>`, under a key derived from the master key. */
export function wrapDataKey(master: Buffer, keyId: string, rawKey: Buffer): string {
  checkKey(master, 'The master key');
  checkKeyId(keyId);
  checkKey(rawKey, `Data key "${keyId}"`);
  return wrapWith(derive(master, WRAP_INFO), keyId, rawKey);
}

function wrapWith(kek: Buffer, keyId: string, rawKey: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', kek, iv);
  cipher.setAAD(wrapAad(keyId));
  const body = Buffer.concat([cipher.update(rawKey), cipher.final(), cipher.getAuthTag()]);
  return `${WRAPPED_VERSION}:${iv.toString('base64url')}:${body.toString('base64url')}`;
}

/** The raw data key from its wrapped form; throws when the master key (or the key id) is not the one it was wrapped with. */
export function unwrapDataKey(master: Buffer, keyId: string, wrapped: string): Buffer {
  checkKey(master, 'The master key');
  checkKeyId(keyId);
  return unwrapWith(derive(master, WRAP_INFO), keyId, wrapped);
}

function unwrapWith(kek: Buffer, keyId: string, wrapped: string): Buffer {
  const m = WRAPPED.exec(wrapped);
  if (!m) throw new DataCryptoError('MALFORMED', `Data key "${keyId}" is not a wrapped key (expected w1:<iv>:<data>)`);
  const body = Buffer.from(m[2]!, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', kek, Buffer.from(m[1]!, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(wrapAad(keyId));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    const raw = Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
    if (raw.length !== KEY_BYTES) throw new Error('length');
    return raw;
  } catch {
    throw new DataCryptoError(
      'AUTH_FAILED',
      `Data key "${keyId}" cannot be unwrapped: the master key is not the one it was wrapped with ` +
        `(check ${MASTER_KEY_ENV} / ${MASTER_KEY_FILE_ENV}), or the stored key was altered`,
    );
  }
}

/* ---- Values ---- */

/** Is this an encrypted value (`v1:<keyId>:<iv>:<data>`)? Card and phone numbers never look like one. */
export function isCiphertext(value: string): boolean {
  return CIPHERTEXT.test(value);
}

/** The data key id an encrypted value was written with. */
export function keyIdOf(ciphertext: string): string {
  const m = CIPHERTEXT.exec(ciphertext);
  if (!m) throw new DataCryptoError('MALFORMED', 'Not an encrypted value (expected v1:<keyId>:<iv>:<data>)');
  return m[1]!;
}

const valueAad = (purpose: string, keyId: string) => Buffer.from(`paydesk/${CIPHERTEXT_VERSION}/${purpose}/${keyId}`);

function checkPurpose(purpose: string): void {
  if (!(Object.values(DATA_PURPOSES) as string[]).includes(purpose))
    throw new DataCryptoError('BAD_KEY', `Unknown encryption purpose "${purpose}"`);
}

/**
 * The normalised form of a requisite before it is hashed for lookups: surrounding and inner whitespace, dashes and
 * brackets are dropped, and a leading '+' ('+7 (916) 123-45-67' → '79161234567', '4111 1111-1111 1111' →
 * '4111111111111111'). Full-width digits become ASCII (NFKC). Letters keep their case.
 */
export function normaliseRequisite(value: string): string {
  return value
    .normalize('NFKC')
    .replace(/[\s()-]/g, '')
    .replace(/^\+/, '');
}

/** HMAC-SHA-256 (base64url, 43 characters) of the normalised value under a lookup key. */
export function lookupHashWith(lookupKey: Buffer, value: string): string {
  return createHmac('sha256', lookupKey).update(normaliseRequisite(value), 'utf8').digest('base64url');
}

/** The lookup key: derived from the master key alone, so lookup hashes survive data-key rotation. */
export function deriveLookupKey(master: Buffer): Buffer {
  checkKey(master, 'The master key');
  return derive(master, LOOKUP_INFO);
}

export type DataKeyRow = {
  id: string;
  wrapped: string;
  createdAt?: Date | string | null;
  retiredAt?: Date | string | null;
};

const time = (d: Date | string | null | undefined) => (d == null ? 0 : new Date(d).getTime());

/**
 * The master key's derived keys and the data keys, unwrapped. Values are written under the active data key; any
 * key in the ring decrypts. Key material is held in private fields, so logging a Keyring shows none of it.
 */
export class Keyring {
  readonly #kek: Buffer;
  readonly #lookupKey: Buffer;
  readonly #dataKeys = new Map<string, Buffer>();
  #activeKeyId: string | null = null;
  /** 16 hex digits identifying the master key (derived from it, reveals nothing of it): for startup logs. */
  readonly masterFingerprint: string;

  constructor(master: Buffer) {
    checkKey(master, 'The master key');
    this.#kek = derive(master, WRAP_INFO);
    this.#lookupKey = derive(master, LOOKUP_INFO);
    this.masterFingerprint = derive(master, FINGERPRINT_INFO).subarray(0, 8).toString('hex');
  }

  /** The id new values are written with, or null before a data key is added. */
  get activeKeyId(): string | null {
    return this.#activeKeyId;
  }

  keyIds(): string[] {
    return [...this.#dataKeys.keys()];
  }

  hasKey(id: string): boolean {
    return this.#dataKeys.has(id);
  }

  /**
   * Adds a raw data key (active: new values are written with it). Adding an id again with the same bytes is a no-op;
   * with other bytes it throws, since values under the first would no longer decrypt.
   */
  addKey(id: string, raw: Buffer, opts: { active?: boolean } = {}): void {
    checkKeyId(id);
    checkKey(raw, `Data key "${id}"`);
    const known = this.#dataKeys.get(id);
    if (known && !timingSafeEqual(known, raw))
      throw new DataCryptoError('BAD_KEY', `Data key "${id}" is already in the keyring with other key bytes`);
    if (!known) this.#dataKeys.set(id, Buffer.from(raw));
    if (opts.active) this.#activeKeyId = id;
  }

  /** A fresh data key (random 32 bytes, random id) and its wrapped form for data_keys; not yet in the ring. */
  newDataKey(): { id: string; key: Buffer; wrapped: string } {
    const id = newKeyId();
    const key = randomBytes(KEY_BYTES);
    return { id, key, wrapped: wrapWith(this.#kek, id, key) };
  }

  wrap(id: string, raw: Buffer): string {
    checkKeyId(id);
    checkKey(raw, `Data key "${id}"`);
    return wrapWith(this.#kek, id, raw);
  }

  unwrap(id: string, wrapped: string): Buffer {
    checkKeyId(id);
    return unwrapWith(this.#kek, id, wrapped);
  }

  /**
   * Unwraps and adds the rows of data_keys. The active key becomes the newest (createdAt, then id) row that is not
   * retired; when every row is retired the active key stays as it was. Throws on the first row that does not unwrap.
   */
  loadWrappedKeys(rows: readonly DataKeyRow[]): void {
    let newest: DataKeyRow | null = null;
    for (const row of rows) {
      this.addKey(row.id, this.unwrap(row.id, row.wrapped));
      if (row.retiredAt != null) continue;
      if (
        !newest ||
        time(row.createdAt) > time(newest.createdAt) ||
        (time(row.createdAt) === time(newest.createdAt) && row.id > newest.id)
      )
        newest = row;
    }
    if (newest) this.#activeKeyId = newest.id;
  }

  /** `v1:<keyId>:<iv>:<ciphertext+tag>` under the active data key, a fresh random IV each time. */
  encrypt(purpose: DataPurpose, plaintext: string): string {
    checkPurpose(purpose);
    const keyId = this.#activeKeyId;
    if (keyId === null)
      throw new DataCryptoError('NO_ACTIVE_KEY', 'No active data key: load the data_keys rows or add a key first');
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#dataKeys.get(keyId)!, iv);
    cipher.setAAD(valueAad(purpose, keyId));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${CIPHERTEXT_VERSION}:${keyId}:${iv.toString('base64url')}:${body.toString('base64url')}`;
  }

  /** The plaintext of a value written by encrypt for the same purpose; throws DataCryptoError otherwise. */
  decrypt(purpose: DataPurpose, ciphertext: string): string {
    checkPurpose(purpose);
    const m = CIPHERTEXT.exec(ciphertext);
    if (!m)
      throw new DataCryptoError('MALFORMED', `A ${purpose} value is not encrypted (expected v1:<keyId>:<iv>:<data>)`);
    const keyId = m[1]!;
    const key = this.#dataKeys.get(keyId);
    if (!key)
      throw new DataCryptoError(
        'UNKNOWN_KEY',
        `A ${purpose} value is encrypted with data key "${keyId}", which is not in the keyring ` +
          `(missing from data_keys, or not loaded yet)`,
      );
    const body = Buffer.from(m[3]!, 'base64url');
    // one spelling per value: base64url whose unused last bits are set is not one encrypt wrote
    if (body.toString('base64url') !== m[3])
      throw new DataCryptoError('MALFORMED', `A ${purpose} value is not a canonical encrypted value`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(m[2]!, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(valueAad(purpose, keyId));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new DataCryptoError(
        'AUTH_FAILED',
        `A ${purpose} value failed authentication: it was altered, or it belongs to another column`,
      );
    }
  }

  keyIdOf(ciphertext: string): string {
    return keyIdOf(ciphertext);
  }

  isCiphertext(value: string): boolean {
    return isCiphertext(value);
  }

  /** Is the value written under a key other than the active one (a rotation still has to rewrite it)? */
  needsReencryption(ciphertext: string): boolean {
    return keyIdOf(ciphertext) !== this.#activeKeyId;
  }

  /** The value under the active key: the same string when it already is, else decrypted and encrypted again. */
  reencrypt(purpose: DataPurpose, ciphertext: string): string {
    if (!this.needsReencryption(ciphertext)) {
      this.decrypt(purpose, ciphertext); // still authenticated: a rotation never carries a forged value along
      return ciphertext;
    }
    return this.encrypt(purpose, this.decrypt(purpose, ciphertext));
  }

  /** HMAC-SHA-256 (base64url) of the normalised value: equal requisites, equal hashes, in every column. */
  lookupHash(value: string): string {
    return lookupHashWith(this.#lookupKey, value);
  }
}

/* ---- Loading the master key ---- */

export type MasterKeySource =
  | { kind: 'env' }
  | { kind: 'file'; path: string }
  /** development/test: the data folder's key file, generated by this call or found there */
  | { kind: 'generated' | 'dev-file'; path: string };

export type LoadKeyringOptions = {
  /** 'production' requires a key; any other value allows the development key file. */
  env: string;
  dataDir: string;
  /** DATA_ENCRYPTION_KEY's value */
  masterKey?: string;
  /** DATA_ENCRYPTION_KEY_FILE's value: a file holding the key (hex or base64) */
  keyFile?: string;
};

/** DATA_ENCRYPTION_KEY and DATA_ENCRYPTION_KEY_FILE from an environment, empty values as unset. */
export function masterKeySettings(vars: NodeJS.ProcessEnv): Pick<LoadKeyringOptions, 'masterKey' | 'keyFile'> {
  return { masterKey: vars[MASTER_KEY_ENV] || undefined, keyFile: vars[MASTER_KEY_FILE_ENV] || undefined };
}

/**
 * The keyring of the master key from DATA_ENCRYPTION_KEY or the file DATA_ENCRYPTION_KEY_FILE names (never both).
 * Without either, production refuses to start; development and test use `<dataDir>/keys/master.key`, created once
 * (mode 0600; two processes starting together end up with the same key). The ring has no data key yet: load the
 * data_keys rows with loadWrappedKeys.
 */
export function loadKeyring(opts: LoadKeyringOptions): { keyring: Keyring; source: MasterKeySource } {
  const { masterKey, keyFile } = opts;
  if (masterKey && keyFile)
    throw new Error(`Set either ${MASTER_KEY_ENV} or ${MASTER_KEY_FILE_ENV}, not both: they name the same master key`);
  if (masterKey) return { keyring: new Keyring(parseMasterKey(masterKey, MASTER_KEY_ENV)), source: { kind: 'env' } };
  if (keyFile) {
    const file = path.resolve(keyFile);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(`${MASTER_KEY_FILE_ENV} names ${file}, which cannot be read: ${(e as Error).message}`);
    }
    return {
      keyring: new Keyring(parseMasterKey(text, `The key file ${file} (${MASTER_KEY_FILE_ENV})`)),
      source: { kind: 'file', path: file },
    };
  }
  if (opts.env === 'production')
    throw new Error(
      `Data encryption needs a master key in production: set ${MASTER_KEY_ENV} (32 bytes as 64 hex digits or ` +
        `base64, e.g. from 'openssl rand -base64 32') or ${MASTER_KEY_FILE_ENV} (a file holding it). ` +
        `Keep it out of the database and its backups; see docs/data-encryption.md`,
    );
  const file = path.join(opts.dataDir, DEV_MASTER_KEY_FILE);
  const generated = ensureDevKeyFile(file);
  return {
    keyring: new Keyring(parseMasterKey(fs.readFileSync(file, 'utf8'), `The development key file ${file}`)),
    source: { kind: generated ? 'generated' : 'dev-file', path: file },
  };
}

/**
 * Creates the development key file unless it exists; true when this call created it. The key is written to a
 * private temporary file and hard-linked into place, which fails when the file exists: another process never sees
 * a half-written key, and of two processes racing only one key wins. Where hard links are not supported, the file
 * is opened with 'wx' (exclusive create) instead.
 */
function ensureDevKeyFile(file: string): boolean {
  if (fs.existsSync(file)) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const content = `${randomBytes(KEY_BYTES).toString('base64')}\n`;
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeExclusive(tmp, content);
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  try {
    writeExclusive(file, content);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

function writeExclusive(file: string, content: string): void {
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
