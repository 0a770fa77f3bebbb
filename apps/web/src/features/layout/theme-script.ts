/**
 * The theme the user chose (light / dark), kept in localStorage and applied as html[data-theme] by a script in
 * <head> that runs before the first paint (no flash of the other theme). Without a choice the system's
 * prefers-color-scheme decides (globals.css light-dark()).
 */
export const THEME_KEY = 'nodelet-theme';

export type Theme = 'light' | 'dark';

export const THEME_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_KEY)});if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}`;
