/* global self */
// Breaking-news alerts' service worker (docs/decisions/0127-breaking-news-alerts.md), registered at scope / by
// app/enhance/push.js. It only shows the alerts the server pushes ({ lang, title, body, url, tag }, already in the
// reader's language) and opens the item when one is tapped. It caches nothing and handles no fetch.
self.addEventListener("push", (event) => {
  let alert = {};
  try {
    alert = event.data ? event.data.json() : {};
  } catch {
    // Not ours: nothing shown.
  }
  if (!alert.title) return;
  event.waitUntil(
    self.registration.showNotification(alert.title, {
      body: alert.body,
      lang: alert.lang,
      dir: alert.lang === "ar" ? "rtl" : "ltr",
      tag: alert.tag,
      icon: "/favicon.svg",
      data: { url: alert.url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data && event.notification.data.url;
  // Our own pages only: the path of the address the server sent, on this origin.
  if (url) event.waitUntil(self.clients.openWindow(new URL(url, self.location.origin).pathname));
});
