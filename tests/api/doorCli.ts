/**
 * The command-line doors' cases of the door test (tests/api/doors.test.ts): what each command-line tool
 * writes, the admin commands' bad and good command lines, and the Tate files the import is tried with.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEED_FILES } from '../../server/import/seed';
import { readGzJson } from '../import/helpers';

/** What each command-line tool writes, and where its bad input is tried. */
export const CLI_CASES: Record<string, string> = {
  server: 'the start-up steps (STARTUP_STEPS, below), then the HTTP routes',
  import: 'below: bad rows refused naming the field, good rows audited as cli:<OS user>',
  admin: 'below: ADMIN_COMMANDS',
  backup: 'reads only (a snapshot into a new directory)',
  restore: 'below: a tampered backup is refused and DATA_DIR stays empty',
  'uploads-migrate': 'copies stored files between stores (same keys, no record changes)',
  'ledger-verify': 'reads only',
  'ledger-verify-proof': 'reads only',
};

/** Bad and good command lines of each admin command; a bad one's refusal must start `refused: <field>`. */
export const ADMIN_CASES: Record<string, { bad: [string[], string][]; good?: string[] }> = {
  'create-user': {
    bad: [
      [['create-user', 'door.cli', '--roles', 'user', '--name', 'W'.repeat(100)], 'name'],
      [['create-user', 'door.cli', '--roles', 'user', '--name', '<b>x</b>'], 'name'],
      [['create-user', 'door.cli', '--roles', 'user', '--name', 'a\u001b[31m'], 'name'],
      [['create-user', 'door.cli', '--roles', 'user,user,admin,admin'], 'roles'],
      [['create-user', 'door.cli', '--roles', 'user', '--password', 'p'.repeat(300)], 'password'],
      [['create-user', 'door.cli', '--roles', 'user', '--nmae', 'Typo'], '--nmae'],
      [['create-user', '--roles', 'user'], 'username'],
      [['create-user', 'door.cli'], 'roles'],
    ],
    good: ['create-user', 'door.cli', '--roles', 'user', '--password', 'door-cli-password'],
  },
  'reset-password': {
    bad: [
      [['reset-password', 'door.cli', '--password', 'short'], 'password'],
      [['reset-password', 'door.cli', '--zz', 'x'], '--zz'],
      [['reset-password'], 'username'],
    ],
    good: ['reset-password', 'door.cli', '--password', 'door-cli-password-2'],
  },
  'list-users': { bad: [[['list-users', 'extra'], 'username']] },
  'disable-user': {
    bad: [[['disable-user', 'door.cli', '--force', '1'], '--force']],
    good: ['disable-user', 'door.cli'],
  },
  'revoke-sessions': { bad: [[['revoke-sessions'], 'username']], good: ['revoke-sessions', 'door.cli'] },
};

/** A small Tate file pair from the shipped sample: one artist, two of its artworks, and `bad` rows. */
export function tateFiles(dir: string, bad: Record<string, unknown>[], skip = 0) {
  const artists = readGzJson(SEED_FILES.artists).rows;
  const artworks = readGzJson(SEED_FILES.artworks).rows;
  const ids = new Set(artists.map((a) => a.id));
  const good = artworks
    .filter(
      (w) => ids.has(w.contributors?.[0]?.id) && String(w.title).length < 30 && w.medium && w.dimensions,
    )
    .slice(skip, skip + 2);
  const artist = artists.find((a) => a.id === good[0].contributors[0].id)!;
  const rows = [
    ...good.filter((w) => w.contributors[0].id === artist.id),
    ...bad.map((b) => ({ ...good[0], ...b })),
  ];
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'artists.json'), JSON.stringify([artist]));
  writeFileSync(join(dir, 'artworks.json'), JSON.stringify(rows));
  return {
    artistsFile: join(dir, 'artists.json'),
    artworksFile: join(dir, 'artworks.json'),
    good: rows.length - bad.length,
  };
}

export const BAD_ROWS = [
  { acno: 'T99991', id: 990001, title: 'a <b onclick=x>bold</b>' },
  { acno: 'T99992', id: 990002, title: 'x'.repeat(61) },
  { acno: 'T99993', id: 990003, title: 'a\u001b[31mred' },
  { acno: 'T99994', id: 990004, title: 42 },
];
