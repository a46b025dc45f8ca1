import { memo } from 'react';
import { Table } from '@mantine/core';
import { Link, useNavigate, type NavigateFunction } from 'react-router';
import { formatDateLong } from '@paydesk/contracts/dates';
import type { Invoice } from '@paydesk/contracts/invoices';
import { formatMoneyEn } from '../../../lib/format';
import { PAGES } from '../../../lib/pages';
import classes from './invoice-table.module.css';
import { PlainBadge, PlainStatusBadge } from './status-badge';

/**
 * The list's rows: id upper case, dates in the long format, flow and Test badges, status badge, amount. Memoised:
 * the list's other updates (search text, loading state) do not rebuild the rows. The header and frame are Mantine's
 * Table; the rows are plain cells with Table's own classes (see InvoiceRow).
 */
export const InvoiceTable = memo(function InvoiceTable({ rows }: { rows: Invoice[] }) {
  const navigate = useNavigate();
  return (
    // Where the card is narrower than the five columns need, each row takes two lines (invoice-table.module.css), so
    // the amount stays in view; narrower still, the table scrolls inside its card (scrollbar shown) rather than
    // squeeze badges and amounts.
    <div className={classes.frame}>
      <Table.ScrollContainer minWidth={820} className={classes.scroll} scrollAreaProps={{ type: 'auto' }}>
        <Table highlightOnHover verticalSpacing="sm" aria-label="Transactions" className={classes.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th className={classes.cId}>Invoice ID</Table.Th>
              <Table.Th className={classes.cDates}>Created / Status date (UTC)</Table.Th>
              <Table.Th className={classes.cType}>Type</Table.Th>
              <Table.Th className={classes.cStatus}>Status</Table.Th>
              <Table.Th ta="right" className={classes.cAmount}>
                Amount
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((inv) => (
              <InvoiceRow key={inv.invoiceId} inv={inv} onOpen={navigate} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </div>
  );
});

const TD = Table.classes.td;

/**
 * One row as plain elements with the classes and attributes Mantine's Table.Tr/Td, Text, Group and Badge would give
 * them: a page of rows was ~16 Mantine components each, whose hooks and style resolution were most of /invoices'
 * first render on a phone (docs/benchmarks.md, Back-office first load).
 */
function InvoiceRow({ inv, onOpen }: { inv: Invoice; onOpen: NavigateFunction }) {
  const to = PAGES.InvoiceDetails(inv.invoiceId);
  return (
    <tr
      className={`${Table.classes.tr} ${classes.row}`}
      data-with-row-border
      data-hover
      data-testid="invoice-row"
      onClick={(e) => {
        // the id link handles its own clicks (and middle/ctrl clicks)
        if ((e.target as HTMLElement).closest('a')) return;
        void onOpen(to);
      }}
    >
      <td className={`${TD} ${classes.cId}`}>
        <Link to={to} className={`${classes.id} mantine-focus-auto`}>
          {inv.invoiceId.toUpperCase()}
        </Link>
        <p className={classes.sub}>{inv.merchantInvoiceId}</p>
      </td>
      <td className={`${TD} ${classes.cDates}`}>
        <p className={classes.line}>{formatDateLong(inv.createdDate)}</p>
        <p className={classes.sub}>{formatDateLong(inv.statusDate)}</p>
      </td>
      <td className={`${TD} ${classes.cType}`}>
        <div className={classes.badges}>
          <PlainBadge color="gray" variant="outline" lowercase>
            {inv.flowType.code.toLowerCase()}
          </PlainBadge>
          {inv.isTestProcessing && (
            <PlainBadge color="orange" variant="filled">
              Test
            </PlainBadge>
          )}
        </div>
      </td>
      <td className={`${TD} ${classes.cStatus}`}>
        <PlainStatusBadge code={inv.invoiceStatus.code} label={inv.invoiceStatus.value} />
      </td>
      <td className={`${TD} ${classes.cAmount}`} data-testid="row-amount">
        <p className={`${classes.line} ${classes.amount}`}>
          {formatMoneyEn(inv.amount, inv.currency.dimension, inv.currency.code)}
        </p>
      </td>
    </tr>
  );
}
