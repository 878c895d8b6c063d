/** The embedded engine's time machine moves its clock forward by 1 to this many whole days at a time. */
export const MAX_TIME_MACHINE_DAYS = 3660;
export const DAYS_MESSAGE = `Enter a whole number of days from 1 to ${MAX_TIME_MACHINE_DAYS}.`;
