// Back from a coin to the list it was opened from (the in-app 뒤로 or the browser's): the list as
// it was left — scrolled where it was, the row the person opened in focus — never at its top.
export function createReturnPlace() {
  let left = null;   // { tab, y, row: a selector of the row opened, or null; top: where it stood on screen }
  // The page keeps its own places: the browser restoring a scroll of the coin page onto the list
  // would undo it.
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";

  return {
    // A coin opens from `tab`, scrolled to where it is now (`row`: the row tapped, if a list row).
    leaving(tab, row = null) {
      const element = row && document.querySelector(row);
      left = { tab, y: scrollY, row, top: element ? element.getBoundingClientRect().top : null };
    },
    // `tab` is on screen again: back where it was left, if it is the one left; else forgotten.
    shown(tab) {
      const back = left;
      left = null;
      if (!back || back.tab !== tab) return;
      // A live list reorders while the coin is open: the row opened stands where it stood on
      // screen (the list scrolled to it, not to the old offset), in focus.
      const restore = () => {
        const row = back.row && document.querySelector(back.row);
        scrollTo(0, back.y);
        if (!row) return;
        if (back.top !== null) scrollBy(0, row.getBoundingClientRect().top - back.top);
        row.focus({ preventScroll: true });
      };
      restore();
      // Once more after the list has been laid out again (its rows are answered anew).
      requestAnimationFrame(() => requestAnimationFrame(restore));
    },
  };
}
