/**
 * The blockchain pages as an operator sees them while the ledger is halted (issue 31): the red banner
 * of a channel's alarm (src/resources/blockchain/LedgerAlarms.tsx) and the chains table's status.
 */
import type { Locator } from 'playwright-core';
import { BasePage } from './BasePage';

export class LedgerAlarmPage extends BasePage {
  /** The banner of `channel`'s alarm. */
  banner(channel = 'artchannel'): Locator {
    return this.page.getByTestId(`ledger-alarm-${channel}`);
  }

  /** The chains table's status cell on the blockchain overview. */
  chainStatus(): Locator {
    return this.page.getByTestId('chain-status').first();
  }

  /** Opens a blockchain page by its route and waits for the banner. */
  async openWithBanner(route: string): Promise<Locator> {
    await this.open(route);
    const b = this.banner();
    await b.waitFor({ timeout: 15_000 });
    return b;
  }
}
