// 회원 탈퇴 on the profile: the account and everything it keeps (favorites, portfolio, alerts)
// deleted for good, once the person confirms who they are — the current password, or for an
// account that logs in only through Kakao, Naver or Google, its nickname (the server decides;
// `DELETE /api/me`). The page then speaks for an anonymous visitor again.
import { onSubmit } from "./forms.js";

const $ = (selector, root = document) => root.querySelector(selector);

// `me()`: who is logged in; `send(method, path, body)`: the account module's request;
// `deleted()`: what follows once the account is gone.
export function setupAccountDeletion({ t, toast, me, send, deleted }) {
  const byPassword = () => ((me() && me().providers) || []).includes("password");

  function applyLanguage() {
    $("#delete-account-title").textContent = t("accountDelete");
    $("#delete-account-text").textContent = t("accountDeleteWarning");
    $("#delete-account-label").textContent = t(byPassword() ? "accountPasswordField" : "accountNicknameField");
    $("#delete-account-submit").textContent = t("accountDelete");
    const field = $("#delete-account-confirm");
    field.type = byPassword() ? "password" : "text";
    field.autocomplete = byPassword() ? "current-password" : "off";
  }

  onSubmit($("#delete-account-form"), async () => {
    const typed = $("#delete-account-confirm").value;
    try {
      await send("DELETE", "/api/me", byPassword() ? { password: typed } : { nickname: typed });
      $("#delete-account-confirm").value = "";
      toast(t("accountDeleted"));
      deleted();
    } catch (error) { toast(error.message); }
  });

  return { applyLanguage };
}
