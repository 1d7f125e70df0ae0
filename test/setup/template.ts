/** Where global-setup leaves a migrated embedded database for the e2e suites to copy (if it made one). */
export const TEMPLATE_DATA_DIR = process.env.E2E_TEMPLATE_DIR ?? '/nonexistent';
