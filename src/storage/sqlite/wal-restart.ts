/**
 * 16,384 frames of 4 KB pages: past a WAL of 64 MB the background thread starts it over
 * (background-thread.ts), and the connection that writes first after that cuts the file back
 * to this size (journal_size_limit, set on the server's and the thread's).
 */
export const WAL_RESTART_FRAMES = 16_384;
export const WAL_SIZE_LIMIT_BYTES = WAL_RESTART_FRAMES * 4096;
