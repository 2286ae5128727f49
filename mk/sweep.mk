# sweep.mk — main.c references sw_main weakly, which does not pull src/sweep.c out of the static
# library; -u makes the linker take it, so `gsrscope sweep` is in the binary. (owner: issue #7)
LDFLAGS += -Wl,-u,sw_main
