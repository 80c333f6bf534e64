/**
 * The console's own messages (namespace `baas.*`), English; the Chinese are in ./baas.zh.ts, typed
 * `typeof baasEn` so a missing translation fails the type check (a module of its own: the English
 * visitor's first chunk carries no Chinese). Validation messages are keyed by JSON Schema keyword (see validation.ts);
 * `x-maxWidth` says the limit in both units: display width and Chinese characters (limit / 2).
 */
import { fieldMessagesEn, serverMessagesEn } from '../../common/messages/en';

export const baasEn = {
  app: { title: 'BaaS Admin', subtitle: 'Art-works registry and blockchain console' },
  auth: {
    login_title: 'Sign in to BaaS Admin',
    session_expired: 'You have been logged out (the session expired or was revoked). Please log in again.',
  },
  language: { en: 'English', zh: '中文' },
  // The tab of the fields without a section; a schema's own tabs are labelled by its `x-sections`.
  sections: { main: 'Main' },
  action: {
    look_at_works: 'Look at works',
    upload: 'Upload image',
    add_url: 'Add',
    make_main: 'Make main picture',
    remove_image: 'Remove image',
    copy: 'Copy',
  },
  images: {
    main: 'Main picture',
    url: 'Image URL',
    count: '%{count} / %{max} images',
    full: 'At most %{max} images',
    uploading: 'Uploading…',
    upload_failed: 'Upload failed: %{message}',
    url_invalid: 'Enter a URL starting with http://, https:// or /',
    none: 'No image',
  },
  message: {
    delete_title: 'Delete %{name}',
    delete_irreversible: 'Delete "%{recordRepresentation}"? This cannot be undone.',
    bulk_delete_title: 'Delete %{smart_count} %{name}',
    bulk_delete_irreversible: 'Delete %{smart_count} selected items? This cannot be undone.',
    copied: 'Copied',
  },
  page: { works_of: 'Works of %{name}', works_count: '%{smart_count} work |||| %{smart_count} works' },
  chain: {
    put: 'Put on chain',
    put_selected: 'Put on chain',
    title: 'Put %{smart_count} record on chain |||| Put %{smart_count} records on chain',
    progress: '%{done} of %{total} done',
    authors_first:
      'Put their authors on chain first (%{smart_count} author not on chain) |||| Put their authors on chain first (%{smart_count} authors not on chain)',
    authors_needed:
      '%{smart_count} of the selected artworks has an author who is not on chain: it is refused until its author is on chain. |||| %{smart_count} of the selected artworks have an author who is not on chain: they are refused until their author is on chain.',
    start: 'Start',
    close: 'Close',
    waiting: 'Waiting',
    working: 'Putting on chain…',
    done: 'On chain in block %{number}',
    repeated: 'Already on chain, unchanged (block %{number})',
    refused_author: 'Refused: the author %{name} is not on chain yet',
    failed: 'Failed: %{message}',
    summary: '%{ok} on chain, %{failed} refused or failed',
    row_done: '%{name}: on chain in block %{number}',
  },
  empty: '—',
  // The keyword texts are shared with the server: common/messages/en.ts `fieldMessagesEn`.
  validation: fieldMessagesEn,
  schemaFrom: {
    pick_first: 'Choose the %{field} first: its parameters appear here.',
    none: 'No parameters',
  },
  archive: {
    archive: 'Archive',
    restore: 'Restore',
    confirm_title: 'Archive %{name}?',
    confirm_content: 'It leaves the list and is kept whole in Data > Pigeonhole, where it can be restored.',
    archived: '%{name} archived to the pigeonhole',
    restored: '%{name} restored',
  },
  transfer: {
    export: 'Export',
    export_csv: 'Export CSV',
    export_xlsx: 'Export Excel (XLSX)',
    exporting: 'Exporting %{name}…',
    export_progress: '%{done} of %{total} rows',
    export_bytes: '%{mb} MB received of %{total} rows',
    export_done: 'Exported %{total} rows',
    import: 'Import',
    import_title: 'Import %{name}',
    import_pick: 'Choose a CSV, XLSX or Tate JSON file',
    import_checking: 'Checking every row…',
    import_counts:
      '%{new} new, %{changed} changed, %{unchanged} unchanged, %{rejected} rejected (of %{total} rows)',
    import_sample: 'Sample of the changes',
    import_rejects: 'Download the reject report',
    import_commit: 'Import %{smart_count} row |||| Import %{smart_count} rows',
    import_committing: 'Importing… %{done} of %{total}',
    import_done: 'Imported: %{new} new, %{changed} changed',
    import_resume: 'An unfinished import of %{file} (%{done} of %{total} rows): continue it?',
    import_discard: 'Discard',
    import_nothing: 'Nothing to import: every row is unchanged or rejected',
    action: 'Action',
    changes: 'Values',
    action_new: 'new',
    action_changed: 'changed',
    // The reject report's columns, shared with the server's CSV (common/messages).
    row: serverMessagesEn['import.reportRow'] as string,
    field: serverMessagesEn['import.reportField'] as string,
    reason: serverMessagesEn['import.reportReason'] as string,
    close: 'Close',
  },
};
