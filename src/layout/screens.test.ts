import { describe, expect, it, vi } from 'vitest';
import { lazyComponent } from '../shell/lazy';
import { preloadScreen, type ResourceViews } from './screens';

/** A resource's views as lazy components whose loaders count their calls. */
function views() {
  const loads = { list: vi.fn(), show: vi.fn(), edit: vi.fn() };
  const view = (name: keyof typeof loads) =>
    lazyComponent(async () => {
      loads[name]();
      return () => null;
    });
  const config: ResourceViews = { list: view('list'), show: view('show'), edit: view('edit') };
  return { loads, config };
}

describe('preloadScreen', () => {
  it("starts loading the view at a resource's list, show and edit paths, once", async () => {
    const { loads, config } = views();
    preloadScreen('/industry/authors', { resources: { authors: config } });
    preloadScreen('/authors/3/show', { resources: { authors: config } });
    preloadScreen('/authors/3/show', { resources: { authors: config } });
    await vi.waitFor(() => expect(loads.show).toHaveBeenCalled());
    expect(loads.list).toHaveBeenCalledTimes(1);
    expect(loads.show).toHaveBeenCalledTimes(1);
    expect(loads.edit).not.toHaveBeenCalled();
  });

  it('follows a redirect (react-admin list path → product path), ignores unknown paths', async () => {
    const { loads, config } = views();
    preloadScreen('/authors', { resources: { authors: config } });
    preloadScreen('/no/such/page', { resources: { authors: config } });
    await vi.waitFor(() => expect(loads.list).toHaveBeenCalledTimes(1));
    expect(loads.show).not.toHaveBeenCalled();
  });

  it('a failed preload is forgotten: the next load tries again', async () => {
    let calls = 0;
    const Flaky = lazyComponent(async () => {
      calls++;
      if (calls === 1) throw new Error('network');
      return () => null;
    });
    await Flaky.preload();
    await Flaky.preload();
    expect(calls).toBe(2);
  });
});
