import { describe, expect, it } from 'vitest';
import { routeTitle } from './routeTitle';

/** A translate that shows its key and options, to see what routeTitle asks for. */
const translate = (key: string, options?: Record<string, unknown>) =>
  key === 'resources.widgets.name'
    ? options?.smart_count === 1
      ? 'Widget'
      : 'Widgets'
    : `${key}${options?.name ? `(${String(options.name)})` : ''}`;

describe('route titles', () => {
  it('reads shell.route keys, plural resource labels and derived detail titles', () => {
    expect(routeTitle(translate, 'authors')).toBe('shell.route.authors');
    expect(routeTitle(translate, 'resources.widgets.name')).toBe('Widgets');
    expect(routeTitle(translate, 'resources.widgets.name#show')).toBe('shell.view.show(Widget)');
  });
});
