import { success } from './outcome';
import type { RequestScope } from './request-scope';

/**
 * The merchant's cashiers as the interface's sub-accounts (Administration GetSubAccounts) and the calling
 * cashier's DataWire ids (Gateway Admin ChangeDataWireId, DoesUserExist).
 */

/** The merchant's cashiers with their DataWire ids and the number of website payments each took. */
export async function subAccounts(scope: RequestScope, isDemo: boolean) {
  const q = scope.services.storage.read;
  const mid = scope.principal.mid;
  const [cashiers, settings, counts, firstUser] = await Promise.all([
    q.all(q.qb.selectFrom('cashiers').selectAll().where('mid', '=', mid).orderBy('cid')),
    q.all(q.qb.selectFrom('cashier_settings').selectAll().where('mid', '=', mid)),
    q.all(
      q.qb
        .selectFrom('payments')
        .select((eb) => ['cid', eb.fn.countAll<number>().as('n')])
        .where('mid', '=', mid)
        .where('pos_code', '=', 'ECommerce')
        .where('status', '=', 'approved')
        .groupBy('cid'),
    ),
    q.first(
      q.qb
        .selectFrom('processor_users')
        .select('user_hint')
        .where('mid', '=', mid)
        .orderBy('processor_id')
        .limit(1),
    ),
  ]);
  return {
    ...success(),
    SubAccounts: cashiers.map((c) => {
      const s = settings.find((x) => x.cid === c.cid);
      return {
        CanSale: c.can_sale === 1,
        in_black_list: false,
        isDemo,
        is_enable: c.is_enable === 1,
        DataWireId: s?.datawire_id ?? '',
        DataWireIdBackUp: s?.datawire_id_backup ?? '',
        description: c.description,
        first_name: c.first_name,
        host_pass: '',
        host_user: firstUser?.user_hint ?? '',
        last_name: c.last_name,
        picture_link: '',
        WebsitePaymentsCount: Number(counts.find((n) => n.cid === c.cid)?.n ?? 0),
        id: c.cid,
        mid: c.mid,
        createdOn: c.created_at,
      };
    }),
  };
}

/** The cashier's new DataWire id; the previous one is kept as the backup, unless the same id is sent again. */
export async function changeDataWireId(
  c: { id: string; processorMid: string | undefined },
  scope: RequestScope,
) {
  const { mid, cid } = scope.principal;
  const now = scope.now.toISOString();
  const saved = await scope.services.storage.write(async (tx) => {
    await tx.lock(`cashier:${mid}:${cid}`);
    const before = await tx.first(
      tx.qb.selectFrom('cashier_settings').selectAll().where('mid', '=', mid).where('cid', '=', cid),
    );
    const values = {
      datawire_id: c.id,
      // The previous id is kept as the backup, unless the same id is sent again.
      datawire_id_backup:
        before && before.datawire_id !== c.id ? before.datawire_id : (before?.datawire_id_backup ?? ''),
      processor_mid: c.processorMid ?? before?.processor_mid ?? '',
      updated_at: now,
    };
    if (before) {
      await tx.run(
        tx.qb.updateTable('cashier_settings').set(values).where('mid', '=', mid).where('cid', '=', cid),
      );
    } else {
      await tx.run(tx.qb.insertInto('cashier_settings').values({ mid, cid, ...values }));
    }
    return values;
  });
  return {
    ...success(['DataWire id changed']),
    cid,
    DataWireId: saved.datawire_id,
    DataWireIdBackUp: saved.datawire_id_backup,
    ProcessorMid: saved.processor_mid,
  };
}
