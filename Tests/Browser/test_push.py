"""Alerts with the app closed, in a real headless Chromium, as far as it allows: the 알림 tab's
switch and the list of the owner's devices (a subscription kept through the API shows, in the
page's words, and is removed by its button), a refusal when notifications are blocked, and the
service worker turning a delivered push message into a notification that opens the coin's page.

What headless Chromium cannot do here: reach a real push service (FCM), so `pushManager.subscribe`
never settles (the page gives up after 20 s and says so — not waited for here); and a person's tap
on a notification (the `notificationclick` handler is not driven). The server's side of a real
delivery — encryption, VAPID, 404/410, retries — is AlertDestinationsTests, against a stand-in."""
import json
import tempfile

from selenium.webdriver.common.by import By

from conftest import Server, make_driver, tap
from test_board import wait


def test_the_switch_the_devices_and_a_pushed_notification():
    with tempfile.TemporaryDirectory() as data_dir:
        server = Server(data_dir, extra=["--allow-private-webhooks"]).start()
        driver = make_driver(390, 844)
        try:
            driver.get(server.url + "/alerts")
            wait(driver, lambda d: d.execute_script("return navigator.serviceWorker.controller !== null"), timeout=15)
            toggle = driver.find_element(By.ID, "push-toggle")
            assert toggle.text == "이 기기에서 받기" and toggle.get_attribute("aria-pressed") == "false"

            # Blocked notifications: the switch says why it cannot turn on.
            driver.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "notifications"}, "setting": "denied", "origin": server.url})
            tap(driver, toggle)
            wait(driver, lambda d: d.find_element(By.ID, "push-note").is_displayed())
            assert "차단" in driver.find_element(By.ID, "push-note").text
            assert toggle.get_attribute("aria-pressed") == "false"

            # A subscription kept for this owner (as the switch would, with a browser's real keys)
            # is listed by its push service's host, and removed by its button.
            kept = driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const csrf = (document.cookie.match(/(?:^|; )sise_csrf=([^;]+)/) || [])[1] || "";
                crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])
                  .then((pair) => crypto.subtle.exportKey("raw", pair.publicKey))
                  .then((raw) => {
                    const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
                    return fetch("/api/push/subscriptions", { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
                      body: JSON.stringify({ endpoint: "https://push.example.net/send/one", keys: { p256dh: b64(raw), auth: b64(crypto.getRandomValues(new Uint8Array(16))) } }) });
                  })
                  .then((r) => r.json().then((body) => done([r.status, body])))
                  .catch((e) => done(String(e)));""")
            assert kept[0] == 201, kept
            driver.get(server.url + "/alerts")
            wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#push-devices li[data-subscription-id]")) == 1)
            row = driver.find_element(By.CSS_SELECTOR, "#push-devices li[data-subscription-id]")
            assert "push.example.net" in row.text and "send/one" not in row.text, row.text
            tap(driver, row.find_element(By.CSS_SELECTOR, "[data-action=delete-subscription]"))
            wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#push-devices li[data-subscription-id]"))

            # A chat as a destination: the form asks for what that service takes, and a refusal
            # lands under its field; a kept one is listed without its secret.
            from selenium.webdriver.support.ui import Select
            Select(driver.find_element(By.ID, "webhook-kind")).select_by_value("telegram")
            assert not driver.find_element(By.ID, "webhook-url").is_displayed() and driver.find_element(By.ID, "webhook-token").is_displayed()
            driver.find_element(By.ID, "webhook-token").send_keys("not-a-token")
            driver.find_element(By.ID, "webhook-chat").send_keys("-1001234567890")
            tap(driver, driver.find_element(By.ID, "webhook-submit"))
            wait(driver, lambda d: d.find_element(By.ID, "webhook-token").get_attribute("aria-invalid") == "true")
            token = "123456789:AAH-browser_test_secret_token_01"
            driver.find_element(By.ID, "webhook-token").clear()
            driver.find_element(By.ID, "webhook-token").send_keys(token)
            tap(driver, driver.find_element(By.ID, "webhook-submit"))
            wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#webhook-list li[data-kind=telegram]")) == 1)
            listed = driver.find_element(By.CSS_SELECTOR, "#webhook-list li[data-kind=telegram]").text
            assert "텔레그램" in listed and "-1001234567890" in listed and "secret" not in listed, listed
            assert driver.find_element(By.ID, "webhook-token").get_attribute("value") == "", "the token is not kept in the page"

            # The service worker shows a delivered push message (what the browser hands it after
            # decrypting) as a notification, and keeps the coin's page for the tap.
            driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["notifications"], "origin": server.url})
            driver.execute_cdp_cmd("ServiceWorker.enable", {})
            message = {"id": "f1", "alertId": "a1", "exchange": "upbit", "market": "KRW-BTC", "rule": "above", "price": 1.5e8, "at": 0,
                       "title": "업비트 KRW-BTC 알림", "body": "<b>가격</b> · 현재가 150,000,000", "url": "/coin/KRW-BTC?exchange=upbit"}
            shown = []
            def delivered(push):
                # A push handed over while the worker is still starting (a loaded machine) can be
                # lost by the browser: it is handed over again until its notification shows (the
                # same tag replaces, never adds).
                def shows(d):
                    shown[:] = d.execute_async_script("""
                        const done = arguments[arguments.length - 1];
                        navigator.serviceWorker.ready.then((r) => r.getNotifications())
                          .then((list) => done(list.map((n) => [n.title, n.body, n.data && n.data.url, n.tag]))).catch((e) => done([]));""")
                    if any(n[3] == push["id"] for n in shown):
                        return True
                    d.execute_cdp_cmd("ServiceWorker.deliverPushMessage", {"origin": server.url, "registrationId": "0", "data": json.dumps(push)})
                    return False
                wait(driver, shows, timeout=30)
                return next(n for n in shown if n[3] == push["id"])
            assert delivered(message) == [message["title"], message["body"], message["url"], "f1"], shown
            # A message that names another site's page opens the home page instead.
            hostile = dict(message, id="f2", url="//evil.example/x")
            assert delivered(hostile)[2] == "/"
        finally:
            driver.quit()
            server.stop()
