import { memo } from 'react';
import { Table } from '@mantine/core';
import { Link, useNavigate, type NavigateFunction } from 'react-router';
import { formatDateLong } from '@paydesk/contracts/dates';
import type { Invoice } from '@paydesk/contracts/invoices';
import { formatMoneyEn } from '../../../lib/format';
import { ROUTES } from '../../../lib/routes';
import classes from './invoice-table.module.css';
import { PlainBadge, PlainStatusBadge } from './status-badge';

/**
 * Rows of SPEC §2: id upper case, dates in the long format, flow and Test badges, status badge, amount. Memoised:
 * the list's other updates (search text, loading state) do not rebuild the rows. The header and frame are Mantine's
 * Table; the rows are plain cells with Table's own classes (see InvoiceRow).
 */
export const InvoiceTable = memo(function InvoiceTable({ rows }: { rows: Invoice[] }) {
  const navigate = useNavigate();
  return (
    // narrower screens scroll the table inside its card (scrollbar shown) rather than squeeze badges and amounts
    <Table.ScrollContainer minWidth={820} scrollAreaProps={{ type: 'auto' }}>
      <Table highlightOnHover verticalSpacing="sm" aria-label="Transactions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Invoice ID</Table.Th>
            <Table.Th>Created / Status date (UTC)</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((inv) => (
            <InvoiceRow key={inv.invoiceId} inv={inv} onOpen={navigate} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
});

/**
 * One row as plain elements with the classes and attributes Mantine's Table.Tr/Td, Text, Group and Badge would give
 * them: a page of rows was ~16 Mantine components each, whose hooks and style resolution were most of /invoices'
 * first render on a phone (docs/benchmarks.md, Back-office first load).
 */
function InvoiceRow({ inv, onOpen }: { inv: Invoice; onOpen: NavigateFunction }) {
  const to = ROUTES.InvoiceDetails(inv.invoiceId);
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
      <td className={Table.classes.td}>
        <Link to={to} className={`${classes.id} mantine-focus-auto`}>
          {inv.invoiceId.toUpperCase()}
        </Link>
        <p className={classes.sub}>{inv.merchantInvoiceId}</p>
      </td>
      <td className={Table.classes.td}>
        <p className={classes.line}>{formatDateLong(inv.createdDate)}</p>
        <p className={classes.sub}>{formatDateLong(inv.statusDate)}</p>
      </td>
      <td className={Table.classes.td}>
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
      <td className={Table.classes.td}>
        <PlainStatusBadge code={inv.invoiceStatus.code} label={inv.invoiceStatus.value} />
      </td>
      <td className={Table.classes.td}>
        <p className={`${classes.line} ${classes.amount}`}>
          {formatMoneyEn(inv.amount, inv.currency.dimension, inv.currency.code)}
        </p>
      </td>
    </tr>
  );
}
