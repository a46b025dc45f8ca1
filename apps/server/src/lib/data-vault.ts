import { sql } from 'drizzle-orm';
import { maskRequisite } from '@paydesk/contracts/masking';
import type { Db, DbOrTx } from '../db/create-db';
import { DataCryptoError, loadKeyring, type DataPurpose, type Keyring, type MasterKeySource } from './data-crypto';

/*
 * Requisite values (card and phone numbers, of customers' withdrawals and of provider accounts) as the database keeps
 * them (docs/data-encryption.md): encrypted by the server before they reach it, with a keyed hash beside them for
 * lookups and a masked form for every screen. The vault is the only way in or out: `seal` before a write, `open`
 * when a person or the payment form must see the value.
 */

/** What the database stores for one requisite value. */
export type SealedRequisite = { value: string; hash: string; masked: string };

/** Every process re-reads the data keys this often, so that a rotation's new key reaches it (scripts/rotate). */
export const KEY_REFRESH_MS = 30_000;

export class DataVault {
  #refreshing: Promise<void> | null = null;

  constructor(
    readonly keyring: Keyring,
    readonly source: MasterKeySource,
  ) {}

  /** The value encrypted under the active key, its lookup hash and its masked form. */
  seal(purpose: DataPurpose, type: string, value: string): SealedRequisite {
    return {
      value: this.keyring.encrypt(purpose, value),
      hash: this.keyring.lookupHash(value),
      masked: maskRequisite(type, value),
    };
  }

  /** The lookup hash of a value someone typed (a support search, a duplicate check). */
  hash(value: string): string {
    return this.keyring.lookupHash(value);
  }

  /**
   * The plain value. A key this process has not loaded yet (another process rotated) is read from the database once
   * and the value tried again; tampering or a wrong master key still fails.
   */
  async open(db: DbOrTx, purpose: DataPurpose, stored: string): Promise<string> {
    try {
      return this.keyring.decrypt(purpose, stored);
    } catch (e) {
      if (!(e instanceof DataCryptoError) || e.code !== 'UNKNOWN_KEY') throw e;
      await this.refresh(db);
      return this.keyring.decrypt(purpose, stored);
    }
  }

  /** Loads the data keys the database holds (new ones from a rotation; the newest unretired becomes active). */
  refresh(db: DbOrTx): Promise<void> {
    this.#refreshing ??= (async () => {
      try {
        const res = await db.execute<{ id: string; wrapped: string; created_at: string | Date; retired_at: unknown }>(
          sql`SELECT id, wrapped, created_at, retired_at FROM data_keys ORDER BY created_at, id`,
        );
        this.keyring.loadWrappedKeys(
          res.rows.map((r) => ({
            id: r.id,
            wrapped: r.wrapped,
            createdAt: r.created_at,
            retiredAt: r.retired_at as Date | null,
          })),
        );
      } finally {
        this.#refreshing = null;
      }
    })();
    return this.#refreshing;
  }
}

/**
 * The vault of this installation: the master key from the configuration (or, outside production, the data folder's
 * key file), the data keys from the database. A database without a data key gets its first one; two processes
 * starting together agree on it (an advisory lock lets the first insert it; the other reads it).
 */
export async function openVault(
  db: Db,
  config: { env: string; dataDir: string; dataEncryptionKey?: string; dataEncryptionKeyFile?: string },
): Promise<DataVault> {
  const { keyring, source } = loadKeyring({
    env: config.env,
    dataDir: config.dataDir,
    masterKey: config.dataEncryptionKey,
    keyFile: config.dataEncryptionKeyFile,
  });
  const vault = new DataVault(keyring, source);
  await vault.refresh(db);
  if (keyring.activeKeyId === null) {
    const { id, wrapped } = keyring.newDataKey();
    // one first key per database: the advisory lock serialises processes starting together
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('paydesk.data_keys'))`);
      const any = await tx.execute(sql`SELECT 1 FROM data_keys WHERE retired_at IS NULL LIMIT 1`);
      if (any.rows.length === 0) await tx.execute(sql`INSERT INTO data_keys (id, wrapped) VALUES (${id}, ${wrapped})`);
    });
    await vault.refresh(db);
  }
  return vault;
}
