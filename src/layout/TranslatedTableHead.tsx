/**
 * The header row of a MUI table whose column titles are translation keys (react-admin `useTranslate`):
 * one `<TableCell>` a key, in order. Shared by the dashboard, error log, role matrix and tracking tables.
 */
import { TableCell, TableHead, TableRow } from '@mui/material';
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
