// Accounts in the page: the header button (로그인 or the nickname), the log-in / sign-up
// dialog, and the profile page. The server decides everything (rules, messages, masking); on
// every change of who is logged in the page reloads favorites and reconnects its live stream,
// so it speaks for the new owner.
import { request, get } from "./http.js";
import { onSubmit } from "./forms.js";
import { setupAccountDeletion } from "./account-delete.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

export function setupAccount({ t, toast, state, selectTab, onOwnerChanged }) {
  // Who is logged in (null: nobody) and the picture's version: this module's own, no one else's.
  let me = null;
  let avatarVersion = 0;
  let mode = "login";
  // The social log-ins this server offers: [{ id, name, start }].
  let providers = [];
  const providerName = (id) => (providers.find((p) => p.id === id) || { name: id }).name;

  // The server's refusal in its own words; anything else is the page's one line.
  async function send(method, path, body, options = { json: body }) {
    try {
      return await request(method, path, options);
    } catch (error) {
      throw error.fromServer ? error : new Error(t("accountFailed"));
    }
  }

  function paint() {
    const button = $("#account-button");
    button.textContent = me ? me.nickname : t("accountLogin");
    button.dataset.loggedIn = String(Boolean(me));
    const avatar = $("#header-avatar");
    avatar.hidden = !me;
    // A new query each time the picture changes, so the browser does not show the old one.
    if (me) avatar.src = `${me.avatar}?v=${avatarVersion || 0}`;
  }

  function openDialog(next) {
    mode = next;
    for (const tab of $$("[data-auth]")) tab.setAttribute("aria-selected", String(tab.dataset.auth === mode));
    $("#auth-nickname-row").hidden = mode !== "signup";
    $("#auth-password").autocomplete = mode === "signup" ? "new-password" : "current-password";
    $("#auth-submit").textContent = mode === "signup" ? t("accountSignup") : t("accountLogin");
    $("#auth-error").hidden = true;
    if ($("#auth-dialog").hidden) {
      // A fresh dialog: nothing typed for an earlier log-in lingers (a password least of all).
      for (const input of $$("#auth-form input")) input.value = "";
    }
    $("#auth-dialog").hidden = false;
    $("#auth-login").focus();
  }

  // One link per provider: the browser goes to the provider and comes back logged in.
  function paintSocial() {
    const box = $("#social-buttons");
    box.replaceChildren(...providers.map((provider) => {
      const link = document.createElement("a");
      link.href = provider.start;
      link.dataset.provider = provider.id;
      link.textContent = t("socialLogin", { provider: provider.name });
      return link;
    }));
    $("#social-logins").hidden = providers.length === 0;
  }

  // The profile's linked log-ins: unlink what is linked, link what is not.
  function paintProviders() {
    const list = $("#profile-providers");
    const linked = new Set((me && me.providers) || []);
    const rows = [];
    if (linked.has("password")) {
      const row = document.createElement("li");
      row.dataset.linked = "password";
      row.textContent = t("socialPassword");
      rows.push(row);
    }
    for (const provider of providers) {
      const row = document.createElement("li");
      const name = document.createElement("span");
      name.textContent = provider.name;
      row.append(name);
      if (linked.has(provider.id)) {
        row.dataset.linked = provider.id;
        const unlink = document.createElement("button");
        unlink.type = "button";
        unlink.dataset.unlink = provider.id;
        unlink.textContent = t("socialUnlink");
        unlink.addEventListener("click", async () => {
          try {
            me = await send("DELETE", `/api/me/providers/${encodeURIComponent(provider.id)}`);
            paintProviders();
          } catch (error) { toast(error.message); }
        });
        row.append(unlink);
      } else {
        const link = document.createElement("a");
        link.href = `${provider.start}?link=1`;
        link.dataset.linkProvider = provider.id;
        link.textContent = t("socialLink", { provider: provider.name });
        row.append(link);
      }
      rows.push(row);
    }
    list.replaceChildren(...rows);
    $("#profile-providers-box").hidden = providers.length === 0;
  }

  // Back from a provider: `?auth=login|linked` or `?auth_error=…`, worded here, then gone
  // from the address bar (a reload must not say it again).
  function announceReturn() {
    const query = new URLSearchParams(location.search);
    const outcome = query.get("auth");
    const problem = query.get("auth_error");
    if (!outcome && !problem) return;
    const provider = providerName(query.get("provider") || "");
    if (outcome === "login" && me) toast(t("accountWelcome", { nickname: me.nickname }));
    if (outcome === "linked") { toast(t("accountSaved")); selectTab("profile"); }
    const messages = {
      expired: () => t("socialExpired"),
      failed: () => t("socialFailed", { provider, reason: query.get("reason") || "?" }),
      unavailable: () => t("socialUnavailable", { provider }),
      email_in_use: () => t("socialEmailInUse", { provider }),
      linked_elsewhere: () => t("socialLinkedElsewhere", { provider }),
      signup_closed: () => t("accountSignupClosed"),
      throttled: () => t("accountSignupThrottled", { seconds: query.get("seconds") || "60" }),
    };
    // What went wrong (and the provider's reason) takes longer to read than a welcome.
    if (problem) toast((messages[problem] || (() => t("accountFailed")))(), { ms: 8000 });
    // A linked provider lands on the profile (its own address), anything else where it was.
    history.replaceState(null, "", outcome === "linked" ? "/profile" : location.pathname);
  }

  async function submit(event) {
    event.preventDefault();
    const login = $("#auth-login").value.trim();
    const password = $("#auth-password").value;
    try {
      if (mode === "signup") {
        const body = { password, nickname: $("#auth-nickname").value };
        if (login.includes("@")) body.email = login; else body.username = login;
        me = await send("POST", "/api/auth/signup", body);
      } else {
        me = await send("POST", "/api/auth/login", { login, password });
      }
      $("#auth-dialog").hidden = true;
      $("#auth-password").value = "";
      toast(t("accountWelcome", { nickname: me.nickname }));
      paint();
      onOwnerChanged();
    } catch (error) {
      const note = $("#auth-error");
      note.textContent = error.message;
      note.hidden = false;
    }
  }

  function showProfile() {
    // Logged out, the profile asks to log in rather than showing an empty form.
    $("#profile-logged-out").hidden = Boolean(me);
    $("#profile-body").hidden = !me;
    if (!me) return;
    $("#profile-email").textContent = me.email || me.username || "-";
    paintLoginNameLabel();
    $("#profile-joined").textContent = me.joined;
    $("#profile-nickname").value = me.nickname;
    $("#profile-avatar").src = `${me.avatar}?v=${avatarVersion || 0}`;
    paintProviders();
    deletion.applyLanguage();
  }

  async function uploadAvatar(file) {
    try {
      await send("PUT", "/api/me/avatar", undefined, { body: file, type: "application/octet-stream" });
      avatarVersion = Date.now();
      paint();
      showProfile();
      toast(t("accountSaved"));
    } catch (error) { toast(error.message); }
  }

  async function logout(path) {
    try {
      await send("POST", path, {});
    } catch (_) { /* the session may be gone already */ }
    loggedOut(t("accountLoggedOut"));
  }

  // Nobody is logged in any more (logged out, or the account deleted): the page says so.
  function loggedOut(words) {
    me = null;
    paint();
    if (words) toast(words);
    selectTab("exchange");
    onOwnerChanged();
  }
  const deletion = setupAccountDeletion({ t, toast, me: () => me, send, deleted: () => loggedOut(null) });

  // The account's log-in name under its own label: an e-mail address, or a user name.
  function paintLoginNameLabel() {
    $("#profile-email-label").textContent = t(me && !me.email && me.username ? "accountUsernameField" : "accountEmailField");
  }

  function applyLanguage() {
    const words = {
      "#profile-title": "accountProfile", "#profile-joined-label": "accountJoined",
      "#profile-nickname-label": "accountNicknameField", "#profile-save": "accountSave", "#password-current-label": "accountCurrentPassword",
      "#password-new-label": "accountNewPassword", "#password-save": "accountChangePassword", "#logout": "accountLogout",
      "#logout-all": "accountLogoutAll", "#auth-login-label": "accountLoginField", "#auth-password-label": "accountPasswordField",
      "#auth-nickname-label": "accountNicknameField", "[data-auth=login]": "accountLogin", "[data-auth=signup]": "accountSignup",
      "[data-action=auth-cancel]": "cancel", "#profile-avatar-label": "avatarLabel", "#avatar-remove": "avatarRemove",
      "#social-or": "socialOr", "#profile-providers-title": "socialLinked",
      "#profile-logged-out-text": "accountProfileLoggedOut", "#profile-login": "accountLogin",
    };
    for (const [selector, key] of Object.entries(words)) { const element = $(selector); if (element) element.textContent = t(key); }
    paintLoginNameLabel();
    deletion.applyLanguage();
    paint();
    paintSocial();
    if (me && !$("#profile-panel").hidden) paintProviders();
  }

  $("#profile-login").addEventListener("click", () => openDialog("login"));
  $("#account-button").addEventListener("click", () => {
    if (me) selectTab("profile"); else openDialog("login");
  });
  for (const tab of $$("[data-auth]")) tab.addEventListener("click", () => openDialog(tab.dataset.auth));
  $("[data-action=auth-cancel]").addEventListener("click", () => { $("#auth-dialog").hidden = true; });
  onSubmit($("#auth-form"), submit);
  onSubmit($("#profile-form"), async () => {
    try {
      me = await send("PATCH", "/api/me", { nickname: $("#profile-nickname").value });
      paint();
      toast(t("accountSaved"));
    } catch (error) { toast(error.message); }
  });
  onSubmit($("#password-form"), async () => {
    try {
      await send("PATCH", "/api/me", { password: $("#password-current").value, newPassword: $("#password-new").value });
      $("#password-current").value = "";
      $("#password-new").value = "";
      toast(t("accountSaved"));
    } catch (error) { toast(error.message); }
  });
  $("#avatar-file").addEventListener("change", (event) => { if (event.target.files[0]) uploadAvatar(event.target.files[0]); });
  $("#avatar-remove").addEventListener("click", async () => {
    try {
      await send("DELETE", "/api/me/avatar");
      avatarVersion = Date.now();
      paint();
      showProfile();
    } catch (error) { toast(error.message); }
  });
  $("#logout").addEventListener("click", () => logout("/api/auth/logout"));
  $("#logout-all").addEventListener("click", () => logout("/api/auth/logout-all"));

  return {
    async load() {
      const [session, listed] = await Promise.all([
        // Always 200: an anonymous visitor's page logs no failed request.
        get("/api/session").then((s) => (s && s.loggedIn ? s.me : null)).catch(() => null),
        get("/api/auth/providers").catch(() => ({ providers: [] })),
      ]);
      me = session;
      providers = listed.providers || [];
      paint();
      paintSocial();
      announceReturn();
    },
    showProfile,
    applyLanguage,
  };
}
