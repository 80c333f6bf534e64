/** The generated icon imports (scripts/codegen/icons.ts). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emitIcons } from './icons';

describe('src/generated/icons.ts', () => {
  it('a new schema may name any icon: codegen imports exactly the ones the schemas name', () => {
    const loan = JSON.parse(readFileSync('tests/fixtures/loan.schema.json', 'utf8'));
    const source = emitIcons(
      [{ schema: loan }, { schema: { 'x-resource': { name: 'x', icon: 'Image' } } }],
      '',
    );
    expect(source.match(/^import \w+ from '@mui\/icons-material\/\w+';$/gm)).toEqual([
      "import ImageIcon from '@mui/icons-material/Image';",
      "import MuseumIcon from '@mui/icons-material/Museum';",
    ]);
    expect(source).toContain('  Museum: MuseumIcon,');
  });
});
