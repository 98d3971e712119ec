"""What the pyatspi peers share: finding an application on the accessibility bus by its pid."""
import pyatspi


def find_app(pid):
    desktop = pyatspi.Registry.getDesktop(0)
    for app in desktop:
        if app is not None and app.get_process_id() == pid:
            return app
    raise SystemExit(f"no application with pid {pid} on the accessibility bus")
