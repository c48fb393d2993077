import type pg from 'pg';

/**
 * Who besides the gateway's role can create objects in its schema: PUBLIC, other roles granted CREATE,
 * and an owner that is another role (an owner may drop and replace anything in its schema). Any of them
 * could plant a function or operator for the gateway to find (docs/postgres.md, "A schema of its own").
 * A superuser is a member of every role, so for one only the role itself counts as the gateway's.
 */
export async function otherSchemaCreators(
  client: pg.PoolClient,
): Promise<{ schema: string; others: string[] }> {
  const r = await client.query<{ schema: string | null; others: string[] | null }>(
    `with me as (select oid, rolsuper from pg_catalog.pg_roles where rolname = current_user),
          ns as (select * from pg_catalog.pg_namespace where nspname = pg_catalog.current_schema()),
          theirs as (
            select 'owner ' || pg_catalog.pg_get_userbyid(ns.nspowner) as who, ns.nspowner as role
              from ns
            union all
            select case when a.grantee = 0 then 'PUBLIC' else pg_catalog.pg_get_userbyid(a.grantee)::text end,
                   a.grantee
              from ns, pg_catalog.aclexplode(ns.nspacl) a
             where a.privilege_type = 'CREATE')
     select (select nspname from ns) as schema,
            array(select distinct t.who from theirs t, me
                   where t.role = 0
                      or (t.role <> me.oid
                          and (me.rolsuper or not pg_catalog.pg_has_role(me.oid, t.role, 'MEMBER')))
                   order by 1) as others`,
  );
  const row = r.rows[0];
  return { schema: row?.schema ?? '', others: row?.others ?? [] };
}
