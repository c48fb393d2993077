import type { Queryable } from '../storage/queryable';
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
