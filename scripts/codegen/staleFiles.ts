/**
 * The `--check` of the generators (scripts/codegen.ts, scripts/docs-screens.ts): which of the files a
 * generator would write differ from the ones on disk.
 */

/**
 * Paths of `files` (path relative to the project root -> content the generator writes) whose content as
 * `read` returns it differs, or that `read` cannot read (a missing file).
 */
export function differingFiles(files: Record<string, string>, read: (path: string) => string): string[] {
  return Object.entries(files)
    .filter(([path, content]) => {
      try {
        return read(path) !== content;
      } catch {
        return true;
      }
    })
    .map(([path]) => path);
}
