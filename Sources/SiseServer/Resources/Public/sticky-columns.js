// Tables wider than the screen scroll inside themselves with their first column kept in place. A
// cell that slides under that column must never rest there half hidden (4,200,000 read as
// 200,000): a swipe comes to rest at a column's edge (CSS scroll snapping, `.scroller` in
// app.css), and here each scroller is told how wide its kept column is (where the snapped column
// starts) and how much room its end needs for the last column to rest at that edge too.
function measure(scroller) {
  const table = scroller.querySelector("table");
  const first = table && table.querySelector("tr > :first-child");
  if (!first || getComputedStyle(first).position !== "sticky") {
    scroller.style.setProperty("--kept-column", "0px");
    scroller.style.setProperty("--snap-tail", "0px");
    return;
  }
  const cells = table.querySelector("tr").children;
  const kept = first.getBoundingClientRect().width;
  const last = cells.length > 1 ? cells[cells.length - 1].getBoundingClientRect().width : 0;
  scroller.style.setProperty("--kept-column", `${kept}px`);
  const overflowing = table.getBoundingClientRect().width > scroller.clientWidth + 1;
  scroller.style.setProperty("--snap-tail", overflowing ? `${Math.max(0, Math.floor(scroller.clientWidth - kept - last))}px` : "0px");
}

const observer = new ResizeObserver((entries) => {
  for (const entry of entries) measure(entry.target.closest(".scroller") || entry.target);
});

// Every `.scroller` of the page (all in index.html); a table's size changes as its rows arrive.
export function keepColumnsWhole() {
  for (const scroller of document.querySelectorAll(".scroller")) {
    observer.observe(scroller);
    const table = scroller.querySelector("table");
    if (table) observer.observe(table);
  }
}
