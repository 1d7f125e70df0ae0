/**
 * The tracker for developers' own sites, served at /js/analytics.js (under 1.5 KB, a test checks):
 * `<script defer data-app="app_…" src="https://<this server>/js/analytics.js"></script>`.
 * Sends a pageview on load and on every history-API navigation (pushState, back/forward) to
 * /collect as a text/plain beacon (no CORS preflight); `window.platform.track("name", { props })`
 * sends a custom event (`window.analytics(…)`, its older name, still does). No cookies, no localStorage, no fingerprinting: the server derives the daily
 * visitor id from the request itself. `data-api` overrides where it posts.
 */
export const TRACKER_SCRIPT = tracker(
  's=d.currentScript,l,a=s.getAttribute("data-app"),u=s.getAttribute("data-api")||s.src.replace(/\\/js\\/analytics\\.js.*$/,"/collect")',
  ';t("pageview")',
);

/**
 * The same tracker for the sites the platform serves (`/_platform/analytics.js` on a site's own
 * origin): it posts to `/_platform/collect` on that origin, for the site's app (the server knows
 * it), and sends no pageview on load — the server counted the HTML document already — only the
 * navigations after it and custom events.
 */
export const SITE_TRACKER_SCRIPT = tracker('l=location.href,a=null,u="/_platform/collect"', '');

/** The script: `setup` declares `l` (the last URL counted), `a` (the app id) and `u` (where to post); `start` runs last. */
function tracker(setup: string, start: string): string {
  return (
    `!function(){var d=document,w=window,h=history,${setup};` +
    'function t(n,o){var x=location.href;if("pageview"==n){if(x==l)return;l=x}' +
    'var b=JSON.stringify({appId:a,name:n,url:x,referrer:d.referrer||null,screenWidth:w.innerWidth,props:o&&o.props});' +
    'navigator.sendBeacon&&navigator.sendBeacon(u,b)||fetch(u,{method:"POST",body:b,keepalive:!0})}' +
    'var p=h.pushState;h.pushState=function(){p.apply(h,arguments);t("pageview")};' +
    `w.addEventListener("popstate",function(){t("pageview")});w.analytics=t;w.platform={track:t}${start}}();\n`
  );
}
