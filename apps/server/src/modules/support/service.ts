import { and, asc, eq } from 'drizzle-orm';
import { TICKET_STATUSES, canDecideTicket, refusalMessage, type SupportTicketItem } from '@paydesk/contracts';
import { supportTickets } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { ownedInvoice } from '../../lib/tenant';
import { forbidden, invalidState, notFound } from '../../lib/errors';
import { decideTicket, operatorActor } from '../engine/service';
import type { SessionUser } from '../../plugins/auth';

type TicketRow = typeof supportTickets.$inferSelect;

const toItem = (t: TicketRow): SupportTicketItem => {
  const s = TICKET_STATUSES.find((x) => x.code === t.status);
  return {
    id: t.id,
    description: t.description,
    createDate: t.createDate.toISOString(),
    status: { code: t.status, value: s?.value ?? t.status },
  };
};

/** Support history of one invoice of the merchant (404 for another merchant's invoice). */
export async function ticketsOfInvoice(
  ctx: AppContext,
  merchantId: string,
  invoiceId: string,
): Promise<SupportTicketItem[]> {
  await ownedInvoice(ctx.db, merchantId, invoiceId);
  const rows = await ctx.db
    .select()
    .from(supportTickets)
    .where(and(eq(supportTickets.invoiceId, invoiceId), eq(supportTickets.merchantId, merchantId)))
    .orderBy(asc(supportTickets.createDate), asc(supportTickets.id));
  return rows.map(toItem);
}

/**
 * Approve or reject under canDecideTicket: without ticket.decision 403, a SOLVED or REJECTED
 * ticket 409. The engine moves the invoice and writes the event log.
 */
export async function decide(
  ctx: AppContext,
  merchantId: string,
  ticketId: number,
  decision: 'approve' | 'reject',
  caller: { user: SessionUser; ip: string },
  accountId?: number,
): Promise<SupportTicketItem> {
  const [ticket] = await ctx.db
    .select()
    .from(supportTickets)
    .where(and(eq(supportTickets.id, ticketId), eq(supportTickets.merchantId, merchantId)));
  if (!ticket) throw notFound('Ticket');
  if (!canDecideTicket(ticket, caller.user.permissions)) {
    if (!caller.user.permissions.includes('ticket.decision')) throw forbidden(refusalMessage(['ticket.decision']));
    throw invalidState(`The ticket is already ${ticket.status}`);
  }
  const updated = await decideTicket(ctx, {
    ticketId,
    merchantId,
    decision,
    actor: operatorActor(caller.user, caller.ip),
    accountId,
  });
  return toItem(updated);
}
