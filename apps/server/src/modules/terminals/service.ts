import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import {
  refusalMessage,
  attributeValueIssue,
  FLOW_TYPE_HEADER,
  hasPermission,
  isParamType,
  TERMINAL_ATTRIBUTE_TYPE_HEADER,
  type FlowType,
  type TerminalAttributeInput,
  type TerminalCreateBody,
  type TerminalDetails,
  type TerminalListItem,
} from '@paydesk/contracts';
import type { DbOrTx } from '../../db/create-db';
import {
  currencies,
  eventLog,
  paymentMethods,
  references,
  terminalAttributes,
  terminalMethods,
  terminals,
} from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import { recordAudit, staffActor } from '../audit/service';
import type { Caller } from '../../plugins/auth';

/** A terminal's name and attributes by type code, as the audit trail records them. */
async function terminalSnapshot(tx: DbOrTx, id: string) {
  const [t] = await tx
    .select({ name: terminals.name, feeBps: terminals.feeBps, callbackUrl: terminals.callbackUrl })
    .from(terminals)
    .where(eq(terminals.id, id));
  const attrs = await tx
    .select({ code: references.code, value: terminalAttributes.value })
    .from(terminalAttributes)
    .innerJoin(references, eq(references.id, terminalAttributes.attrTypeId))
    .where(eq(terminalAttributes.terminalId, id))
    .orderBy(asc(references.code));
  return {
    name: t?.name ?? null,
    feeBps: t?.feeBps ?? null,
    callbackUrl: t?.callbackUrl ?? null,
    attributes: Object.fromEntries(attrs.map((a) => [a.code, a.value])),
  };
}

const listColumns = {
  id: terminals.id,
  name: terminals.name,
  flowType: terminals.flowType,
  currencyCode: currencies.code,
  isTest: terminals.isTest,
  enabled: terminals.enabled,
};
type ListRow = { id: string; name: string; flowType: string; currencyCode: string; isTest: boolean; enabled: boolean };
const toListItem = (r: ListRow): TerminalListItem => ({
  id: r.id,
  name: r.name,
  paymentFlow: r.flowType as FlowType,
  currency: { code: r.currencyCode },
  isTest: r.isTest,
  enabled: r.enabled,
});

export async function listTerminals(ctx: AppContext, merchantId: string): Promise<TerminalListItem[]> {
  const rows = await ctx.db
    .select(listColumns)
    .from(terminals)
    .innerJoin(currencies, eq(currencies.id, terminals.currencyId))
    .where(eq(terminals.merchantId, merchantId))
    .orderBy(asc(terminals.createdAt), asc(terminals.name));
  return rows.map(toListItem);
}

async function findTerminal(db: DbOrTx, merchantId: string, id: string): Promise<TerminalListItem> {
  const [row] = await db
    .select(listColumns)
    .from(terminals)
    .innerJoin(currencies, eq(currencies.id, terminals.currencyId))
    .where(and(eq(terminals.id, id), eq(terminals.merchantId, merchantId)));
  // another merchant's terminal is "not found", never "forbidden": ids of other tenants are not confirmed
  if (!row) throw notFound('Terminal');
  return toListItem(row);
}

async function attributesOf(db: DbOrTx, terminalId: string) {
  const rows = await db
    .select({
      id: terminalAttributes.id,
      value: terminalAttributes.value,
      typeId: references.id,
      typeCode: references.code,
      typeValue: references.value,
      paramType: references.paramType,
    })
    .from(terminalAttributes)
    .innerJoin(references, eq(references.id, terminalAttributes.attrTypeId))
    .where(eq(terminalAttributes.terminalId, terminalId))
    .orderBy(asc(references.sort), asc(terminalAttributes.id));
  return rows.map((r) => ({
    id: r.id,
    value: r.value,
    attrType: { id: r.typeId, code: r.typeCode, value: r.typeValue },
    paramType: { code: isParamType(r.paramType) ? r.paramType : ('S' as const) },
  }));
}

const canSeeAttributes = (actor: Caller) => hasPermission(actor.user.permissions, 'terminal.attr.read');

export async function getTerminal(
  ctx: AppContext,
  actor: Caller,
  merchantId: string,
  id: string,
  db: DbOrTx = ctx.db,
): Promise<TerminalDetails> {
  // one read of the row: the list columns plus the typed settings
  const [row] = await db
    .select({
      ...listColumns,
      currencyDimension: currencies.dimension,
      feeBps: terminals.feeBps,
      callbackUrl: terminals.callbackUrl,
    })
    .from(terminals)
    .innerJoin(currencies, eq(currencies.id, terminals.currencyId))
    .where(and(eq(terminals.id, id), eq(terminals.merchantId, merchantId)));
  if (!row) throw notFound('Terminal');
  const t = toListItem(row);
  return {
    ...t,
    // the dimension lets the web show and take amount attributes in major units
    currency: { code: row.currencyCode, dimension: row.currencyDimension },
    inTest: t.isTest,
    callbackUrl: row.callbackUrl,
    ...(canSeeAttributes(actor) ? { attributes: await attributesOf(db, id), feeBps: row.feeBps } : {}),
  };
}

/** Checks every attribute's type (header 105) and value (by the type's paramType); 400 with per-field messages. */
async function validateAttributes(db: DbOrTx, list: TerminalAttributeInput[]) {
  if (!list.length) return;
  const ids = [...new Set(list.map((a) => a.attrType.id))];
  const types = await db
    .select({ id: references.id, value: references.value, paramType: references.paramType })
    .from(references)
    .where(and(eq(references.headerId, TERMINAL_ATTRIBUTE_TYPE_HEADER), inArray(references.id, ids)));
  const byId = new Map(types.map((t) => [t.id, t]));
  const fields: Record<string, string> = {};
  let first: string | undefined;
  list.forEach((a, i) => {
    const type = byId.get(a.attrType.id);
    if (!type) {
      fields[`attributes.${i}.attrType.id`] = 'Unknown attribute type';
      first ??= `Unknown attribute type ${a.attrType.id}`;
      return;
    }
    const issue = attributeValueIssue(type.paramType, a.value);
    if (issue) {
      fields[`attributes.${i}.value`] = issue;
      first ??= `${type.value}: ${issue}`;
    }
  });
  if (first) throw badRequest(first, fields);
}

/**
 * PATCH (mode 'merge': name and/or attributes upserted by type) and PUT (mode 'replace': name and
 * the full attribute set). Renaming needs terminal.create (managing terminals); any attribute
 * change needs terminal.attr.read.
 */
export async function updateTerminal(
  ctx: AppContext,
  actor: Caller,
  merchantId: string,
  id: string,
  body: { name?: string; attributes?: TerminalAttributeInput[]; feeBps?: number; callbackUrl?: string | null },
  mode: 'merge' | 'replace',
): Promise<TerminalDetails> {
  if (body.feeBps !== undefined && !canSeeAttributes(actor)) throw forbidden(refusalMessage(['terminal.attr.read']));
  if (body.callbackUrl !== undefined && !hasPermission(actor.user.permissions, 'merchant.callback.edit')) {
    throw forbidden(refusalMessage(['merchant.callback.edit']));
  }
  if (body.callbackUrl && ctx.config.env === 'production' && !body.callbackUrl.startsWith('https://')) {
    throw badRequest('Callback URL must use https', { callbackUrl: 'Callback URL must use https' });
  }
  if (body.name !== undefined && !hasPermission(actor.user.permissions, 'terminal.create')) {
    throw forbidden(refusalMessage(['terminal.create']));
  }
  if (body.attributes !== undefined && !canSeeAttributes(actor))
    throw forbidden(refusalMessage(['terminal.attr.read']));
  return ctx.db.transaction(async (tx) => {
    const locked = await tx.execute(
      sql`SELECT id FROM ${terminals} WHERE ${terminals.id} = ${id} AND ${terminals.merchantId} = ${merchantId} FOR UPDATE`,
    );
    if (!locked.rows.length) throw notFound('Terminal');
    const before = await terminalSnapshot(tx, id);
    if (body.name !== undefined) await tx.update(terminals).set({ name: body.name }).where(eq(terminals.id, id));
    if (body.feeBps !== undefined) await tx.update(terminals).set({ feeBps: body.feeBps }).where(eq(terminals.id, id));
    if (body.callbackUrl !== undefined) {
      await tx.update(terminals).set({ callbackUrl: body.callbackUrl }).where(eq(terminals.id, id));
    }
    if (body.attributes !== undefined) {
      await validateAttributes(tx, body.attributes);
      const typeIds = body.attributes.map((a) => a.attrType.id);
      if (mode === 'replace') {
        await tx
          .delete(terminalAttributes)
          .where(
            typeIds.length
              ? and(eq(terminalAttributes.terminalId, id), notInArray(terminalAttributes.attrTypeId, typeIds))
              : eq(terminalAttributes.terminalId, id),
          );
      }
      if (body.attributes.length) {
        await tx
          .insert(terminalAttributes)
          .values(body.attributes.map((a) => ({ terminalId: id, attrTypeId: a.attrType.id, value: a.value })))
          .onConflictDoUpdate({
            target: [terminalAttributes.terminalId, terminalAttributes.attrTypeId],
            set: { value: sql`excluded.value` },
          });
      }
    }
    const after = await terminalSnapshot(tx, id);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await recordAudit(
        tx,
        staffActor(actor.user, actor.ip),
        { action: 'terminal.updated', merchantId, targetType: 'terminal', targetId: id, before, after },
        ctx.now(),
      );
    }
    return getTerminal(ctx, actor, merchantId, id, tx);
  });
}

export async function deleteAttribute(
  ctx: AppContext,
  caller: Caller,
  merchantId: string,
  terminalId: string,
  attributeId: number,
) {
  await findTerminal(ctx.db, merchantId, terminalId);
  await ctx.db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(terminalAttributes)
      .where(and(eq(terminalAttributes.id, attributeId), eq(terminalAttributes.terminalId, terminalId)))
      .returning({ attrTypeId: terminalAttributes.attrTypeId, value: terminalAttributes.value });
    if (!removed) throw notFound('Attribute');
    const [type] = await tx
      .select({ code: references.code })
      .from(references)
      .where(eq(references.id, removed.attrTypeId));
    await recordAudit(
      tx,
      staffActor(caller.user, caller.ip),
      {
        action: 'terminal.attribute_removed',
        merchantId,
        targetType: 'terminal',
        targetId: terminalId,
        before: { [type?.code ?? String(removed.attrTypeId)]: removed.value },
      },
      ctx.now(),
    );
  });
}

/** A new terminal starts in test mode and offers every payment method of its currency. */
export async function createTerminal(
  ctx: AppContext,
  actor: Caller,
  merchantId: string,
  body: TerminalCreateBody,
): Promise<TerminalDetails> {
  const [flow] = await ctx.db
    .select({ code: references.code })
    .from(references)
    .where(and(eq(references.id, body.flowTypeId), eq(references.headerId, FLOW_TYPE_HEADER)));
  const [currency] = await ctx.db
    .select({ id: currencies.id })
    .from(currencies)
    .where(eq(currencies.id, body.currencyId));
  const fields: Record<string, string> = {};
  if (!flow) fields.flowTypeId = 'Unknown flow type';
  if (!currency) fields.currencyId = 'Unknown currency';
  if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0]!, fields);

  const id = await ctx.db.transaction(async (tx) => {
    const [t] = await tx
      .insert(terminals)
      .values({
        merchantId,
        name: body.name,
        flowType: flow!.code,
        currencyId: body.currencyId,
        isTest: true,
        enabled: true,
      })
      .returning({ id: terminals.id });
    const methods = await tx
      .select({ id: paymentMethods.id })
      .from(paymentMethods)
      .where(eq(paymentMethods.currencyId, body.currencyId));
    if (methods.length)
      await tx.insert(terminalMethods).values(methods.map((m) => ({ terminalId: t!.id, paymentMethodId: m.id })));
    await tx.insert(eventLog).values({
      merchantId,
      code: 'TERMINAL_CREATED',
      description: `Terminal '${body.name}' created in test mode`,
      data: { terminalId: t!.id },
      userId: actor.user.id,
      eventTime: ctx.now(),
    });
    await recordAudit(
      tx,
      staffActor(actor.user, actor.ip),
      {
        action: 'terminal.created',
        merchantId,
        targetType: 'terminal',
        targetId: t!.id,
        after: { name: body.name, flowType: flow!.code, currencyId: body.currencyId, isTest: true },
      },
      ctx.now(),
    );
    return t!.id;
  });
  return getTerminal(ctx, actor, merchantId, id);
}

/** Test → production, one way: a production terminal never goes back to test. Already production: 409. */
export async function switchToProduction(
  ctx: AppContext,
  actor: Caller,
  merchantId: string,
  terminalId: string,
): Promise<TerminalListItem> {
  return ctx.db.transaction(async (tx) => {
    const res = await tx.execute<{ is_test: boolean }>(
      sql`SELECT is_test FROM ${terminals} WHERE ${terminals.id} = ${terminalId} AND ${terminals.merchantId} = ${merchantId} FOR UPDATE`,
    );
    const row = res.rows[0];
    if (!row) throw notFound('Terminal');
    if (!row.is_test) throw new AppError('INVALID_STATE', 'The terminal is already in production');
    await tx.update(terminals).set({ isTest: false }).where(eq(terminals.id, terminalId));
    await tx.insert(eventLog).values({
      merchantId,
      code: 'TERMINAL_PRODUCTION',
      description: 'Terminal switched from test to production',
      data: { terminalId },
      userId: actor.user.id,
      eventTime: ctx.now(),
    });
    await recordAudit(
      tx,
      staffActor(actor.user, actor.ip),
      {
        action: 'terminal.switched_to_production',
        merchantId,
        targetType: 'terminal',
        targetId: terminalId,
        before: { isTest: true },
        after: { isTest: false },
      },
      ctx.now(),
    );
    return findTerminal(tx, merchantId, terminalId);
  });
}
