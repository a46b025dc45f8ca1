import {
  decimalsOf,
  formatMoney,
  INSUFFICIENT_BALANCE_MESSAGE,
  numberToMinor,
  toExactInt,
  USDT_DIMENSION,
  type SettlementBody,
} from '@paydesk/contracts';
import { eventLog, settlements } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { recordAudit, type AuditActor } from '../audit/service';
import { AppError, badRequest } from '../../lib/errors';
import { ownedTerminal } from '../../lib/tenant';
import { assertFundsCover } from '../engine/guards';
import { holdForApproval, type ApprovalGrant } from '../engine/service';
import { postSettlement } from '../ledger/service';

/**
 * Records a settlement and debits the merchant by baseAmount in the terminal's currency, in one transaction
 * serialised per merchant+currency; refused when it would take the balance below zero.
 */
export async function createSettlement(
  ctx: AppContext,
  merchantId: string,
  actor: AuditActor,
  body: SettlementBody,
  grant?: ApprovalGrant,
) {
  const userId = actor.userId;
  const t = await ownedTerminal(ctx.db, merchantId, body.terminalId);
  if (t.isTest) {
    // a test terminal's money lives in the test book; nothing real can be paid out of it
    throw new AppError('INVALID_STATE', 'Settlements are recorded on live terminals only: this is a test terminal', {
      terminalId: 'Choose a live terminal',
    });
  }
  const baseAmount = numberToMinor(body.baseAmount, t.dimension);
  if (baseAmount === null) {
    const msg =
      decimalsOf(body.baseAmount) > t.dimension
        ? `Base amount must have at most ${t.dimension} decimals for ${t.code}`
        : 'Base amount is too large';
    throw badRequest(msg, { baseAmount: msg });
  }
  const settlementAmount = numberToMinor(body.settlementAmount, USDT_DIMENSION);
  if (settlementAmount === null) {
    const msg = `Settlement amount must have at most ${USDT_DIMENSION} decimals`;
    throw badRequest(msg, { settlementAmount: msg });
  }
  if (userId) {
    const money = formatMoney(baseAmount, t.dimension, 'en', t.code);
    const held = await holdForApproval(
      ctx,
      { ...actor, userId },
      {
        action: 'settlement.create',
        merchantId,
        targetType: 'terminal',
        targetId: t.id,
        summary: `Settle ${money} of terminal ${t.name} for ${formatMoney(settlementAmount, USDT_DIMENSION, 'en', 'USDT')}`,
        payload: { merchantId, body },
        before: null,
        after: { baseAmount, settlementAmount, terminalId: t.id },
        reason: body.reason ?? `Settlement of ${money}`,
        amount: baseAmount,
        currency: t.code,
      },
      grant,
    );
    if (held) return { held };
  }
  const at = ctx.now();

  return ctx.db.transaction(async (tx) => {
    // the engine's funds rule, the same one every payout and amount change passes
    const balance = await assertFundsCover(tx, {
      merchantId,
      currencyId: t.currencyId,
      book: 'live',
      taken: baseAmount,
      refusal: (available, money) =>
        new AppError(
          'INSUFFICIENT_BALANCE',
          `${INSUFFICIENT_BALANCE_MESSAGE} (${money(available > 0n ? available : 0n)})`,
          {
            baseAmount: `At most ${money(available > 0n ? available : 0n)}`,
          },
        ),
    });
    const balanceAfter = balance - BigInt(baseAmount);
    const [s] = await tx
      .insert(settlements)
      .values({
        merchantId,
        terminalId: t.id,
        currencyId: t.currencyId,
        baseAmount,
        settlementAmount,
        createdBy: userId,
        createdAt: at,
      })
      .returning({ id: settlements.id, createdAt: settlements.createdAt });
    await postSettlement(tx, {
      settlementId: s!.id,
      merchantId,
      terminalId: t.id,
      currencyId: t.currencyId,
      baseAmount,
      at,
    });
    await tx.insert(eventLog).values({
      merchantId,
      code: 'SETTLEMENT_CREATED',
      description: `Settlement #${s!.id}: ${formatMoney(baseAmount, t.dimension, 'en', t.code)} for ${formatMoney(settlementAmount, USDT_DIMENSION, 'en', 'USDT')}`,
      data: { settlementId: s!.id, terminalId: t.id, baseAmount, settlementAmount, currency: t.code },
      eventTime: at,
      userId,
    });
    await recordAudit(
      tx,
      actor,
      {
        action: 'settlement.created',
        merchantId,
        targetType: 'settlement',
        targetId: s!.id,
        before: { balance: String(balance), currency: t.code },
        after: { balance: String(balanceAfter), baseAmount, settlementAmount, terminalId: t.id },
      },
      at,
    );
    return {
      id: s!.id,
      terminalId: t.id,
      currency: t.code,
      baseAmount,
      settlementAmount,
      balanceAfter: toExactInt(balanceAfter),
      createdAt: s!.createdAt.toISOString(),
    };
  });
}
