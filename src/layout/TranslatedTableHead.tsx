/**
 * The header row of a MUI table whose column titles are translation keys (react-admin `useTranslate`):
 * one `<TableCell>` a key, in order. Shared by the dashboard, error log, role matrix, record history and
 * tracking tables; `TranslatedTable` is a whole small table with that header, scrolling sideways in its box.
 */
import type { ReactNode } from 'react';
import {
  Box,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  type SxProps,
  type Theme,
} from '@mui/material';
import { useTranslate } from 'react-admin';

/** `<TableHead>` with one cell a translation key of `columns`. */
export function TranslatedTableHead({ columns }: { columns: readonly string[] }) {
  const translate = useTranslate();
  return (
    <TableHead>
      <TableRow>
        {columns.map((key) => (
          <TableCell key={key}>{translate(key)}</TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
}

/**
 * A small MUI table (`data-testid` = `testId`, styled by `sx`) in a box that scrolls it sideways (`boxSx`
 * adds to the box): the `TranslatedTableHead` of `columns`, then `children` (its rows) as the body.
 */
export function TranslatedTable({
  columns,
  testId,
  sx,
  boxSx,
  children,
}: {
  columns: readonly string[];
  testId: string;
  sx?: SxProps<Theme>;
  boxSx?: Record<string, unknown>;
  children: ReactNode;
}) {
  return (
    <Box sx={{ overflowX: 'auto', ...boxSx }}>
      <Table size="small" data-testid={testId} sx={sx}>
        <TranslatedTableHead columns={columns} />
        <TableBody>{children}</TableBody>
      </Table>
    </Box>
  );
}
