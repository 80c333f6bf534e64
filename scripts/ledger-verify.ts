/**
 * `npm run ledger:verify [-- --channel <name>]`: opens the configured database (DATA_DIR / DATABASE_URL,
 * as the server does; read-only use), recomputes every transaction leaf hash, Merkle root, DER block hash
 * and previous-hash link (docs/ledger.md section 6), and prints "verified N blocks, M transactions" or
 * the first broken block or transaction. Exit code 0 when verified, 1 when broken, 2 on a usage or
 * database error.
 */
import { connect } from '../server/db/connect';
import { loadConfig } from '../server/config';
import { verifyLedger } from '../server/ledger/verify';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  let channel: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--channel' && args[i + 1]) channel = args[++i];
    else if (args[i] === '--help' || args[i] === '-h') {
      console.log(
        'usage: npm run ledger:verify [-- --channel <name>]   (DATA_DIR / DATABASE_URL select the database)',
      );
      return 0;
    } else {
      console.error(`unknown argument "${args[i]}"; usage: npm run ledger:verify [-- --channel <name>]`);
      return 2;
    }
  }
  const config = loadConfig();
  const { db } = connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const hasLedger = await db.introspection
      .getTables()
      .then((tables) => tables.some((t) => t.name === 'ledger_block'));
    if (!hasLedger) {
      console.error(
        `no ledger in ${config.databaseUrl ? 'the DATABASE_URL database' : `${config.dataDir}/baas.sqlite`}: start the server once first`,
      );
      return 2;
    }
    const started = performance.now();
    const result = await verifyLedger(db, channel);
    const ms = Math.round(performance.now() - started);
    if (result.ok) {
      console.log(`${result.message} (${ms} ms)`);
      return 0;
    }
    console.error(`BROKEN: ${result.message}`);
    console.error(
      `  checked before the failure: ${result.blocks} blocks, ${result.transactions} transactions`,
    );
    return 1;
  } catch (err) {
    console.error(`ledger:verify failed: ${(err as Error).message}`);
    return 2;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
