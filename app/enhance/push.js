// @ts-check
/**
 * Breaking-news alerts' opt-in (issue 32, docs/decisions/0127-breaking-news-alerts.md), loaded only on the pages
 * that offer it (home, /news) and only when the site has VAPID keys. The box is in the server's HTML, `hidden`:
 * shown here only where the browser can receive pushes, so without JavaScript (or without Push) nothing shows.
 * Its words are its data-* attributes, in the page's language. Subscribing registers the service worker
 * (public/push-sw.js, scope /), asks the push service for a subscription with our VAPID public key and sends
 * it, with the page's language, to POST /api/push/subscriptions; the button then turns alerts off again.
 */
const box = document.querySelector("[data-push-opt-in]");
const sw = navigator.serviceWorker;
if (box instanceof HTMLElement && sw && "PushManager" in window && "Notification" in window && window.isSecureContext) {
  const d = box.dataset;
  const button = /** @type {HTMLButtonElement} */ (box.querySelector("button"));
  const status = /** @type {HTMLElement} */ (box.querySelector("[data-push-status]"));
  /** @type {PushSubscription | null} */
  let current = null;
  /** @param {boolean} on */
  const show = (on) => {
    button.textContent = (on ? d.off : d.on) || "";
    button.setAttribute("aria-pressed", String(on));
    box.dataset.state = on ? "on" : "off";
    box.hidden = false;
  };
  /** @param {string | undefined} text */
  const say = (text) => (status.textContent = text || "");
  /** @param {string} method @param {object} body */
  const send = async (method, body) => {
    const answer = await fetch("/api/push/subscriptions", { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(String(answer.status));
  };
  // The VAPID public key (base64url) as the bytes pushManager.subscribe takes.
  const key = Uint8Array.from(atob((d.key || "").replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

  sw.getRegistration("/")
    .then((registration) => registration && registration.pushManager.getSubscription())
    .then(
      (subscription) => show(!!(current = subscription || null)),
      () => show(false),
    );

  button.addEventListener("click", async () => {
    button.disabled = true;
    say("");
    try {
      if (current) {
        const { endpoint } = current;
        await current.unsubscribe();
        current = null;
        show(false);
        say(d.unsubscribed);
        await send("DELETE", { endpoint });
        return;
      }
      if ((await Notification.requestPermission()) !== "granted") return say(d.denied);
      await sw.register("/push-sw.js", { scope: "/" });
      const registration = await sw.ready;
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      try {
        await send("POST", { ...subscription.toJSON(), language: document.documentElement.lang });
      } catch (error) {
        // Not stored: the browser keeps no subscription the site does not know.
        await subscription.unsubscribe();
        throw error;
      }
      current = subscription;
      show(true);
      say(d.subscribed);
    } catch {
      say(d.failed);
    } finally {
      button.disabled = false;
    }
  });
}
