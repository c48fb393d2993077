import type { Selectable } from 'kysely';
import { UniqueViolation, type Queryable, type Storage } from '../storage/queryable';
import type { VaultTokensTable } from '../storage/schema';
import { encryptPan, decryptPan, cardFingerprint } from '../security/vault-cipher';
import type { GatewayKeys } from '../security/keys';
import { newTokenIdentifier, newVaultToken } from './ids';

export type VaultCard = {
  pan: string;
  expiryYYMM: string;
  cardType: string;
  holderName?: string | undefined;
  street?: string | undefined;
  zip?: string | undefined;
  clientRef?: string | undefined;
  description?: string | undefined;
};

/** Stores a card for (merchant, user, processor); the PAN only as AES-GCM ciphertext. */
export async function storeCard(
  tx: Queryable,
  keys: GatewayKeys,
  owner: { mid: number; userId: number; processor: string },
  card: VaultCard,
  now: string,
  existingToken?: string,
): Promise<{ id: number; token: string; identifier: string }> {
  const token = existingToken ?? newVaultToken();
  const identifier = newTokenIdentifier();
  const row = await tx.first(
    tx.qb
      .insertInto('vault_tokens')
      .values({
        mid: owner.mid,
        user_id: owner.userId,
        processor: owner.processor,
        token,
        identifier,
        fingerprint: cardFingerprint(keys.fingerprintKey, card.pan),
        pan_ciphertext: encryptPan(keys.vaultKey, owner.mid, card.pan),
        first6: card.pan.slice(0, 6),
        last4: card.pan.slice(-4),
        // Stored MMYY, the interface's ExpirationDate format.
        exp_mmyy: card.expiryYYMM.slice(2, 4) + card.expiryYYMM.slice(0, 2),
        card_type: card.cardType,
        holder_name: card.holderName ?? '',
        street: card.street ?? '',
        zip: card.zip ?? '',
        client_ref: card.clientRef ?? '',
        description: card.description ?? '',
        active: 1,
        created_at: now,
      })
      .returning('id'),
  );
  if (!row) throw new Error('vault insert returned no id');
  return { id: row.id, token, identifier };
}

export type StoredCard = {
  id: number;
  pan: string;
  expMMYY: string;
  cardType: string;
  holderName: string;
  street: string;
  zip: string;
};

/** A merchant's token, decrypted for one authorization; null when it is not this merchant's or inactive. */
export async function loadCard(
  q: Queryable,
  keys: GatewayKeys,
  mid: number,
  token: string,
): Promise<StoredCard | null> {
  const row = await q.first(
    q.qb
      .selectFrom('vault_tokens')
      .select(['id', 'pan_ciphertext', 'exp_mmyy', 'card_type', 'holder_name', 'street', 'zip', 'active'])
      .where('mid', '=', mid)
      .where('token', '=', token),
  );
  if (!row || !row.active) return null;
  return {
    id: row.id,
    pan: decryptPan(keys.vaultKey, mid, row.pan_ciphertext),
    expMMYY: row.exp_mmyy,
    cardType: row.card_type,
    holderName: row.holder_name,
    street: row.street,
    zip: row.zip,
  };
}

/**
 * `storeCard` in a unit of work of its own; null when `existingToken` is already stored (the vault's unique
 * token refused it), which the caller answers as such rather than as a failure.
 */
export async function storeCardUnlessStored(
  storage: Storage,
  keys: GatewayKeys,
  owner: { mid: number; userId: number; processor: string },
  card: VaultCard,
  now: string,
  existingToken?: string,
): Promise<{ id: number; token: string; identifier: string } | null> {
  try {
    return await storage.write((tx) => storeCard(tx, keys, owner, card, now, existingToken));
  } catch (error) {
    if (error instanceof UniqueViolation) return null;
    throw error;
  }
}

export type VaultTokenRow = Selectable<VaultTokensTable>;

/** The merchant's credit processor and whether it answers token lookups; undefined for an unknown merchant. */
export function tokenLookupSettings(q: Queryable, mid: number) {
  return q.first(
    q.qb
      .selectFrom('merchants')
      .select(['credit_processor', 'token_lookup_supported'])
      .where('mid', '=', mid),
  );
}

/** Lookups are scoped to the application user and merchant; an unknown identifier finds nothing. */
export function tokenByIdentifier(
  q: Queryable,
  who: { mid: number; userId: number },
  identifier: string,
): Promise<VaultTokenRow | undefined> {
  return q.first(
    q.qb
      .selectFrom('vault_tokens')
      .selectAll()
      .where('identifier', '=', identifier)
      .where('mid', '=', who.mid)
      .where('user_id', '=', who.userId),
  );
}

/** Every record of one card (its fingerprint) for this user, merchant and credit processor. */
export function cardTokenRecords(
  q: Queryable,
  who: { mid: number; userId: number },
  processor: string,
  fingerprint: string,
): Promise<VaultTokenRow[]> {
  return q.all(
    q.qb
      .selectFrom('vault_tokens')
      .selectAll()
      .where('mid', '=', who.mid)
      .where('user_id', '=', who.userId)
      .where('processor', '=', processor)
      .where('fingerprint', '=', fingerprint)
      .orderBy('id'),
  );
}
