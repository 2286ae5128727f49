# tui.mk — main.c references tui_main weakly, which does not pull the TUI out of the static
# library; make the linker take it so `gsrscope` with no subcommand opens the TUI.
LDFLAGS += -Wl,-u,tui_main
