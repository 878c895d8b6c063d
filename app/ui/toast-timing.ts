/** How long a flash message shows before it fades, with JavaScript: app/ui/toast.tsx and the plain pages' scripts. */
export const TOAST_VISIBLE_MS = 8000;
